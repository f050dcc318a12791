package org.forager.store.postgres;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;

/**
 * The child process of {@link PostgresCrawlStoreCrashTest}: {@value #THREADS} threads record crawls
 * with discovered links through one store (so that their records share group transactions) until
 * killed, each printing {@code ack T N} once its N-th record returned.
 */
public final class PostgresCrashWriter {

  static final int THREADS = 8;
  static final int LINKS = 5;
  static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

  private PostgresCrashWriter() {}

  static String page(int thread, int i) {
    return "https://crash" + thread + ".example/page/" + i;
  }

  static String link(int thread, int i, int j) {
    return "https://crash" + thread + ".example/link/" + i + "/" + j;
  }

  public static void main(String[] args) throws InterruptedException {
    PostgresCrawlStore store = PostgresCrawlStore.open(args[0]);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      threads.add(Thread.ofPlatform().start(() -> {
        for (int i = 0; ; i++) {
          CrawlRecord crawl = new CrawlRecord(page(thread, i), T0.plusSeconds(i), Outcome.FETCHED, 200, 5,
              Optional.of("text/html"), 100, Optional.empty(), Optional.empty(), Optional.empty(), false,
              false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
          List<Candidate> links = new ArrayList<>();
          for (int j = 0; j < LINKS; j++) links.add(new Candidate(link(thread, i, j), 1, Optional.of(page(thread, i))));
          store.record(crawl, links);
          synchronized (System.out) {
            System.out.println("ack " + thread + " " + i);
            System.out.flush();
          }
        }
      }));
    }
    for (Thread t : threads) t.join();
  }
}
