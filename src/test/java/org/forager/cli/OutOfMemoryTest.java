package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.forager.store.CrawlStore;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running out of memory ends {@code forager crawl} at once with one line naming the setting to change,
 * never a hung process or an exit 0 with a summary that hides it; the next run resumes (issue 19
 * item 3). A child JVM with a 32 MiB heap fetching a 48 MB page it was allowed to keep whole.
 */
@Timeout(180)
class OutOfMemoryTest {

  private static final int PAGES = 20;

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  private Run crawl(Path data, TestSite site, String maxPageBytes) throws Exception {
    Path config = tmp.resolve("forager.yaml");
    Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
        + "user_agent: \"TestBot/1.0 (+https://example.org/bot)\"\n"
        + "politeness: { min_delay: 5ms, response_time_factor: 0 }\n"
        + "limits: { max_page_bytes: " + maxPageBytes + ", fetch_timeout: 20s }\n"
        + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process child = ChildCrawl.builder(List.of("-Xmx32m"), config, "--quiet").redirectErrorStream(false)
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    boolean ended = child.waitFor(90, TimeUnit.SECONDS);
    if (!ended) child.destroyForcibly().waitFor();
    assertTrue(ended, "the process ended by itself:\n" + Files.readString(err));
    return new Run(child.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void outOfMemoryEndsTheProcessWithOneLineNamingTheSettingAndTheNextRunResumes() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[PAGES + 1];
      for (int i = 0; i < PAGES; i++) {
        links[i] = "/p" + i;
        site.html(links[i], "<p>page " + i + "</p>");
      }
      links[PAGES] = "/big";
      site.linking("/", links).route("/big", ex -> {
        ex.getResponseHeaders().set("Content-Type", "text/html");
        ex.sendResponseHeaders(200, 48L << 20);
        byte[] chunk = new byte[1 << 20];
        try (OutputStream body = ex.getResponseBody()) {
          for (int i = 0; i < 48; i++) body.write(chunk);
        }
      });
      Path data = tmp.resolve("data");

      Run first = crawl(data, site, "64MiB");
      assertEquals(1, first.exit(), "out of memory is a runtime failure:\n" + first.err());
      assertEquals(List.of(), first.out().lines().toList(), "no summary that would hide it");
      List<String> lines = first.err().lines().toList();
      assertEquals(1, lines.size(), "one line, no stack trace:\n" + first.err());
      assertTrue(lines.get(0).startsWith("forager: out of memory (Java heap, 32 MiB): raise FORAGER_HEAP"),
          lines.get(0));
      assertTrue(lines.get(0).contains("limits.max_page_bytes") && lines.get(0).contains("run again to resume"),
          lines.get(0));

      // The advice taken: the same heap, pages capped. Everything is crawled, nothing recorded is lost.
      Run second = crawl(data, site, "1MiB");
      assertEquals(0, second.exit(), second.err());
      assertTrue(second.out().contains("TOTAL"), second.out());
      for (String link : links) assertTrue(site.count(link) >= 1, link + " was crawled");
      long pageRequests = site.paths().stream().filter(p -> !p.equals("/robots.txt")).count();
      assertTrue(pageRequests <= PAGES + 3, "only the fetch in flight is repeated: " + site.paths());
      TestCrawl.assertWarcFilesFinishedAndReadable(data);
      TestCrawl.assertPolite(data);
      try (CrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        assertEquals(PAGES + 2, store.urlCount(), "every known URL is still known");
        store.forEachUrl(u -> assertTrue(u.lastCrawl().isPresent(), u.url() + " was crawled"));
      }
    }
  }
}
