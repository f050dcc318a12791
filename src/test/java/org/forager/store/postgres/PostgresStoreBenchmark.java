package org.forager.store.postgres;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.url.Origin;

/**
 * A rough measure of the PostgreSQL store on a throw-away embedded server, one thread: adding links
 * in batches of 1,000 over 200 origins (every second link repeats an earlier one), popping every
 * origin's due URLs, recording 25 crawls per origin, then 25 first crawls per origin that link 20 URLs
 * each (10 known and never crawled, 10 new). Not a test; see docs/fleet.md for how to run it.
 */
public final class PostgresStoreBenchmark {

  private PostgresStoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    int links = Integer.parseInt(args[0]);
    int origins = 200;
    Path dir = Files.createTempDirectory("pgbench");
    try (TestPostgres pg = TestPostgres.start(dir.resolve("data"));
        PostgresCrawlStore store = PostgresCrawlStore.open(pg.freshSchema(), 4)) {
      long t0 = System.nanoTime();
      int added = 0;
      for (int b = 0; b < links / 1000; b++) {
        List<Candidate> batch = new ArrayList<>(1000);
        for (int i = 0; i < 1000; i++) {
          int n = b * 1000 + i;
          int id = (n % 2 == 0) ? n : n / 3; // every second link repeats an earlier one
          batch.add(new Candidate("https://o" + (id % origins) + ".example/page/" + id, 1, Optional.of("https://x.example/")));
        }
        added += store.addCandidates(batch);
      }
      long t1 = System.nanoTime();
      System.out.printf("add: %d links (%d new) in %.1f s = %.0f links/s%n", links, added, (t1 - t0) / 1e9, links / ((t1 - t0) / 1e9));
      Instant now = Instant.now();
      int popped = 0;
      for (int o = 0; o < origins; o++) popped += store.due(Origin.ofUrl("https://o" + o + ".example"), now, 1000).size();
      long t2 = System.nanoTime();
      System.out.printf("due: %d URLs in %.1f s = %.0f URLs/s%n", popped, (t2 - t1) / 1e9, popped / ((t2 - t1) / 1e9));
      int records = 0;
      for (int o = 0; o < origins; o++) {
        for (var due : store.due(Origin.ofUrl("https://o" + o + ".example"), now, 25)) {
          store.record(new CrawlRecord(due.url(), now, Outcome.FETCHED, 200, 10, Optional.of("text/html"), 100,
              Optional.empty(), Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
              now.plusSeconds(86400)), List.of());
          records++;
        }
      }
      long t3 = System.nanoTime();
      System.out.printf("record: %d in %.1f s = %.0f/s (one thread)%n", records, (t3 - t2) / 1e9, records / ((t3 - t2) / 1e9));
      // First crawls linking 10 known, never-crawled URLs of their origin and 10 new ones: the
      // inlink counting path (insert, lock, update on top of the crawl).
      int linked = 0;
      for (int o = 0; o < origins; o++) {
        List<String> known = new ArrayList<>();
        for (var due : store.due(Origin.ofUrl("https://o" + o + ".example"), now, 60)) {
          if (due.fetchCount() == 0) known.add(due.url());
        }
        for (int p = 0; p + 10 < known.size() && p < 25; p++) {
          String page = known.get(p);
          List<Candidate> out = new ArrayList<>(20);
          for (int k = 1; k <= 10; k++) out.add(new Candidate(known.get(p + k), 2, Optional.of(page)));
          for (int k = 0; k < 10; k++) {
            out.add(new Candidate(page + "/new" + k, 2, Optional.of(page)));
          }
          store.record(new CrawlRecord(page, now, Outcome.FETCHED, 200, 10, Optional.of("text/html"), 100,
              Optional.empty(), Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
              now.plusSeconds(86400)), out);
          linked++;
        }
      }
      long t4 = System.nanoTime();
      System.out.printf("record with 20 links (10 known, 10 new), first crawls: %d in %.1f s = %.0f/s (one thread)%n",
          linked, (t4 - t3) / 1e9, linked / ((t4 - t3) / 1e9));
      System.out.println("urlCount " + store.urlCount());
    }
  }
}
