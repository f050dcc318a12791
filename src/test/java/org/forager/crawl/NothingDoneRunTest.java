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
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 1d }\nsitemaps: { enabled: false }");
      RunSummary first = TestCrawl.run(config);
      assertTrue(first.notes().stream().noneMatch(n -> n.startsWith("nothing was due")), first.notes().toString());

      RunSummary second = TestCrawl.run(config);
      assertEquals(0, second.actions());
      assertTrue(second.notes().stream().anyMatch(n -> n.startsWith("nothing was due: the next URL comes due at ")),
          second.notes().toString());
    }
  }

  /** With sitemaps on, the agenda's next time may be a sitemap re-read, not a URL's: the note says both. */
  @Test
  void withSitemapsTheNextTimeIsAnOriginsNotNecessarilyAUrls() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 7d }\nsitemaps: { enabled: true }");
      TestCrawl.run(config);
      RunSummary second = TestCrawl.run(config);
      assertEquals(0, second.actions());
      assertTrue(second.notes().stream().anyMatch(n -> n.startsWith("nothing was due: the next origin comes due at ")
          && n.contains("to read its sitemaps again")), second.notes().toString());
    }
  }

  /** A run its budget ended with work left says so: it read like a finished crawl (a new user's review). */
  @Test
  void aRunMaxActionsEndedSaysThereIsWorkLeft() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b", "/c").html("/a", "<p>a</p>").html("/b", "<p>b</p>").html("/c", "<p>c</p>");
      Path data = tmp.resolve("data");
      RunSummary cut = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 3"));
      assertTrue(cut.notes().contains("max_actions (3) reached with work left: run again to go on, or raise"
          + " max_actions (--max-actions); forager status shows what is due"), cut.notes().toString());
      // Exactly enough: nothing was left, nothing said.
      RunSummary rest = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 2"));
      assertEquals(2, rest.actions());
      assertTrue(rest.notes().stream().noneMatch(n -> n.startsWith("max_actions")), rest.notes().toString());
    }
  }

  /**
   * {@code --max-actions 0} (the README's way to mend a killed crawl's outputs) did what it was asked:
   * said so, not "no origin with work was crawled: given up, or blocked" while URLs were due.
   */
  @Test
  void aRunAskedForNoActionSaysSoRatherThanLookingForACause() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      RunSummary run = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "").withMaxActions(0));
      assertEquals(0, run.actions());
      assertEquals(List.of(), site.paths());
      assertTrue(run.notes().stream().anyMatch(n -> n.startsWith("--max-actions 0: nothing crawled, as asked")),
          run.notes().toString());
      assertTrue(run.notes().stream().noneMatch(n -> n.contains("given up")), run.notes().toString());
    }
  }
}
