package org.forager.store;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;

/**
 * The child process of {@link RocksCrawlStoreCrashTest}: records crawls with discovered links in a
 * loop until killed, saving the crawl setting {@value #SETTING} = N after each, printing
 * {@code ack N} once both calls of the N-th round returned.
 */
public final class CrashWriter {

  private CrashWriter() {}

  static String page(int i) {
    return "https://crash.example/page/" + i;
  }

  static String link(int i, int j) {
    return "https://crash.example/link/" + i + "/" + j;
  }

  /** The body digest of page {@code i}, registered in the exact-duplicate index before its record. */
  static String digest(int i) {
    return "sha1:PAGE" + i;
  }

  static final int LINKS = 5;
  static final String SETTING = "crash.round";
  static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");

  public static void main(String[] args) {
    RocksCrawlStore store = RocksCrawlStore.open(Path.of(args[0]));
    for (int i = 0; ; i++) {
      CrawlRecord crawl = new CrawlRecord(page(i), T0.plusSeconds(i), Outcome.FETCHED, 200, 5,
          Optional.of("text/html"), 100, Optional.of(digest(i)), Optional.empty(), Optional.empty(), false,
          false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
      List<Candidate> links = new java.util.ArrayList<>();
      for (int j = 0; j < LINKS; j++) links.add(new Candidate(link(i, j), 1, Optional.of(page(i))));
      if (store.firstWithDigest(digest(i), page(i)).isPresent()) throw new AssertionError("not the first " + i);
      store.record(crawl, links);
      store.saveSetting(SETTING, Integer.toString(i));
      System.out.println("ack " + i);
      System.out.flush();
    }
  }
}
