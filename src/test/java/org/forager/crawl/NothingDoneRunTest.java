package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A run that does nothing says why: it once printed "TOTAL 0" and nothing else. */
@Timeout(60)
class NothingDoneRunTest {

  @TempDir Path tmp;

  @Test
  void aRunWithNothingDueNamesWhenTheNextUrlComesDue() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 1d }");
      RunSummary first = TestCrawl.run(config);
      assertTrue(first.notes().stream().noneMatch(n -> n.startsWith("nothing was due")), first.notes().toString());

      RunSummary second = TestCrawl.run(config);
      assertEquals(0, second.actions());
      assertTrue(second.notes().stream().anyMatch(n -> n.startsWith("nothing was due: the next URL comes due at ")),
          second.notes().toString());
    }
  }
}
