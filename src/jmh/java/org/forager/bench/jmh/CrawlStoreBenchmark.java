package org.forager.bench.jmh;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.DueCandidate;
import org.forager.store.RocksCrawlStore;
import org.forager.url.Origin;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The {@link RocksCrawlStore} calls a crawled page makes, per call: {@code addCandidates} of a page's
 * 40 links, {@code due} of a todo batch of 64, and {@code record} of a fetch with its 40 discovered
 * links. Each benchmark has its own store in a scratch directory, made and filled in its trial's
 * setup and deleted afterwards.
 *
 * <p>The links are shaped like a site's: of a page's 40 links, 20 are the origin's navigation (the
 * same on every page, so duplicates after the first page) and 20 are new articles; 100 origins take
 * turns. The store grows during the run, as in a crawl. Building each batch (40 strings) is timed
 * too; it costs a few microseconds next to the store's hundreds.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CrawlStoreBenchmark {

  static final int ORIGINS = 100;
  static final int NAV_LINKS = 20;
  static final int NEW_LINKS = 20;
  static final int TODO_BATCH = 64;
  /** Candidates per origin in the due benchmark's store. */
  static final int DUE_PER_ORIGIN = 1_000;

  static String origin(int o) {
    return "https://site" + o + ".example";
  }

  static String nav(int o, int k) {
    return origin(o) + "/section-" + k + "/";
  }

  static String article(int o, long id) {
    return origin(o) + "/news/2026/11/story-" + id + ".html";
  }

  /** A page's links: the origin's navigation, then the articles {@code firstId...}. */
  static List<Candidate> links(int o, long firstId, String from) {
    List<Candidate> links = new ArrayList<>(NAV_LINKS + NEW_LINKS);
    Optional<String> source = Optional.of(from);
    for (int k = 0; k < NAV_LINKS; k++) links.add(new Candidate(nav(o, k), 1, source));
    for (int k = 0; k < NEW_LINKS; k++) links.add(new Candidate(article(o, firstId + k), 2, source));
    return links;
  }

  /** A store in a scratch directory, each origin's navigation known already. */
  abstract static class StoreState {
    Path dir;
    RocksCrawlStore store;

    void open(String name) {
      dir = ScratchDir.create(name);
      store = RocksCrawlStore.open(dir);
      for (int o = 0; o < ORIGINS; o++) {
        store.addScope(List.of(Origin.ofUrl(origin(o))));
        store.addCandidates(links(o, 0, origin(o) + "/").subList(0, NAV_LINKS));
      }
    }

    void close() {
      store.close();
      ScratchDir.delete(dir);
    }
  }

  @State(Scope.Benchmark)
  public static class AddState extends StoreState {
    long page;

    @Setup
    public void setUp() {
      open("add");
    }

    @TearDown
    public void tearDown() {
      close();
    }
  }

  @State(Scope.Benchmark)
  public static class DueState extends StoreState {
    Origin[] origins;
    Instant cutoff;
    int next;

    @Setup
    public void setUp() {
      open("due");
      origins = new Origin[ORIGINS];
      for (int o = 0; o < ORIGINS; o++) {
        origins[o] = Origin.ofUrl(origin(o));
        for (int id = 0; id < DUE_PER_ORIGIN; id += NEW_LINKS) store.addCandidates(links(o, id, origin(o) + "/"));
      }
      cutoff = Instant.now();
      if (store.due(origins[0], cutoff, TODO_BATCH).size() != TODO_BATCH) throw new IllegalStateException("store not filled");
    }

    @TearDown
    public void tearDown() {
      close();
    }
  }

  @State(Scope.Benchmark)
  public static class RecordState extends StoreState {
    static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    long step;

    @Setup
    public void setUp() {
      open("record");
      // Article 0 of every origin is a known candidate; page n discovers articles 20n+1..20n+20,
      // so every page recorded was discovered before, as in a crawl.
      for (int o = 0; o < ORIGINS; o++) store.addCandidates(List.of(new Candidate(article(o, 0), 2, Optional.empty())));
    }

    @TearDown
    public void tearDown() {
      close();
    }

    CrawlRecord fetched(String url, long step) {
      Instant at = START.plusMillis(step);
      return new CrawlRecord(url, at, Outcome.FETCHED, 200, 120, Optional.of("text/html; charset=utf-8"),
          SyntheticSite.PAGE_BYTES, Optional.of("sha1:6CGHZ6QUWHVQBXLSH5BNZB7MJSNZ3MBN"), Optional.empty(),
          Optional.empty(), false, false, Optional.of("\"5f2a-64c1e2\""),
          Optional.of("Sat, 21 Nov 2026 08:00:00 GMT"), at.plus(Duration.ofDays(30)));
    }
  }

  /** One page's 40 links, half of them known. */
  @Benchmark
  public int addCandidates(AddState s) {
    long page = s.page++;
    int o = (int) (page % ORIGINS);
    return s.store.addCandidates(links(o, page / ORIGINS * NEW_LINKS, origin(o) + "/"));
  }

  /** One todo batch: the first 64 due candidates of an origin. */
  @Benchmark
  public List<DueCandidate> due(DueState s) {
    Origin origin = s.origins[s.next++ % ORIGINS];
    return s.store.due(origin, s.cutoff, TODO_BATCH);
  }

  /** One fetched page recorded with its 40 discovered links, half of them known. */
  @Benchmark
  public void record(RecordState s) {
    long step = s.step++;
    int o = (int) (step % ORIGINS);
    long id = step / ORIGINS;
    String url = article(o, id);
    s.store.record(s.fetched(url, step), links(o, id * NEW_LINKS + 1, url));
  }
}
