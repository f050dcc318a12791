package org.forager.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The library API as the README shows it: a config from code, a page callback, an extra gate. */
@Timeout(60)
class EmbeddingExampleTest {

  @TempDir Path tmp;

  @Test
  void theReadmeExampleCrawlsCollectsTitlesAndHonoursItsGate() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.html("/", "<html><head><title>Home</title></head><body><a href=/a>a</a><a href=/private/b>b</a></body></html>")
          .html("/a", "<html><head><title>Page A</title></head></html>")
          .html("/private/b", "<html><head><title>Secret</title></head></html>");
      Path data = tmp.resolve("data");

      Map<String, String> titles = EmbeddingExample.titles(site.url("/"), data);

      assertEquals(Map.of(site.url("/"), "Home", site.url("/a"), "Page A"), titles);
      assertEquals(0, site.count("/private/b"));
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, site.url("/private/b")));
      TestCrawl.assertPolite(data);
    }
  }
}
