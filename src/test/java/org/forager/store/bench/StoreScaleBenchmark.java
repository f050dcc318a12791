package org.forager.store.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.DueCandidate;
import org.forager.store.RocksCrawlStore;
import org.forager.url.Origin;

/**
 * Measures the embedded store at crawl scale (issue "Speed and scale"): fills it to N known URLs
 * over many origins through the crawl loop's own calls, then pops due candidates, then (in a second
 * process, {@code resume} mode) reopens it and gets a crawl going. Not a test; run by
 * {@code bench/store-scale}, which documents the arguments.
 *
 * <p>The workload, deterministic per thread: seeds (one per origin) go in by
 * {@link RocksCrawlStore#addCandidates}; then each of T threads owns the origins {@code o ≡ t mod T}
 * (the crawl loop crawls an origin from one worker at a time), picks one of them at random and
 * records a crawl of its next uncrawled page with {@link RocksCrawlStore#record} and 40 discovered
 * links: 10 navigation links (the origin's first pages, nearly always known), 20 new pages of the
 * same origin, 5 earlier pages of the same origin (known), 2 new pages of another origin and 3
 * earlier pages of another origin (known). So about 55 % of the links are new and 45 % duplicates,
 * a share that grows with time in a real crawl. URL {@code n} of origin {@code o} is
 * {@code https://www.site{o}.example/section{n%16}/article-{n}-{three slug words}.html}
 * (80-100 bytes). Per-origin counters know exactly how many URLs exist, so the benchmark checks
 * that the store's URL count is exact.
 */
public final class StoreScaleBenchmark {

  private static final int LINKS_PER_PAGE = 40;
  private static final Instant NOW = Instant.parse("2026-11-21T00:00:00Z");
  private static final String[] WORDS = {
    "news", "local", "market", "river", "winter", "open", "house", "garden", "city", "council",
    "report", "school", "music", "review", "travel", "guide", "health", "energy", "budget", "sport",
    "final", "season", "team", "new", "plan", "road", "bridge", "water", "price", "study", "young",
    "record"};

  private final long target;
  private final int origins;
  private final int threads;
  private final Path dir;
  /** How many URLs of each origin exist (URL n of origin o exists iff n < urls[o]). */
  private final AtomicIntegerArray urls;
  /** How many pages of each origin were recorded as crawled; only the owning thread writes it. */
  private final int[] crawled;
  private final AtomicLong known = new AtomicLong();
  private final AtomicLong linksOffered = new AtomicLong();
  private final AtomicLong pages = new AtomicLong();
  private volatile long maxHeapUsed;
  private volatile long maxHeapAfterGc;

  private StoreScaleBenchmark(long target, int origins, int threads, Path dir) {
    this.target = target;
    this.origins = origins;
    this.threads = threads;
    this.dir = dir;
    this.urls = new AtomicIntegerArray(origins);
    this.crawled = new int[origins];
  }

  /** The store's native memory budget (store.memory): -Dforager.store.memory=256MiB (bench/store-scale's default). */
  private static final long MEMORY =
      org.forager.config.Sizes.parse(System.getProperty("forager.store.memory", "256MiB"));

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "fill";
    long target = args.length > 1 ? parseCount(args[1]) : 1_000_000;
    int origins = args.length > 2 && !args[2].equals("auto") ? (int) parseCount(args[2])
        : (int) Math.max(1000, Math.min(1_000_000, target / 10));
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    Path dir = args.length > 4 ? Path.of(args[4]) : Path.of("/tmp/forager-store-scale");
    StoreScaleBenchmark bench = new StoreScaleBenchmark(target, origins, threads, dir);
    switch (mode) {
      case "fill" -> bench.fill();
      case "resume" -> bench.resume();
      case "urls" -> bench.generationRate();
      default -> throw new IllegalArgumentException("mode: fill, resume or urls, not " + mode);
    }
  }

  static long parseCount(String s) {
    s = s.strip().toLowerCase(Locale.ROOT);
    if (s.contains("e")) return (long) Double.parseDouble(s);
    return Long.parseLong(s.replace("_", ""));
  }

  static String url(int origin, int n) {
    StringBuilder b = new StringBuilder(100).append("https://www.site").append(origin)
        .append(".example/section").append(n & 15).append("/article-").append(n);
    long h = mix(((long) origin << 32) | n);
    for (int i = 0; i < 3; i++, h >>>= 5) b.append('-').append(WORDS[(int) (h & 31)]);
    return b.append(".html").toString();
  }

  static String originUrl(int origin) {
    return "https://www.site" + origin + ".example";
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private void fill() throws Exception {
    deleteTree(dir);
    print("store-scale fill: target=%d origins=%d threads=%d links/page=%d cores=%d maxHeap=%d MiB store.memory=%d MiB dir=%s",
        target, origins, threads, LINKS_PER_PAGE, Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20, MEMORY >> 20, dir);
    Thread sampler = Thread.ofPlatform().daemon().start(this::sampleHeap);
    long t0 = System.nanoTime();
    RocksCrawlStore store = RocksCrawlStore.open(dir, MEMORY);
    try {
      long seedStart = System.nanoTime();
      List<Origin> scope = new ArrayList<>(10_000);
      List<Candidate> seeds = new ArrayList<>(10_000);
      for (int o = 0; o < origins; o++) {
        scope.add(Origin.ofUrl(originUrl(o)));
        seeds.add(Candidate.seed(url(o, 0)));
        urls.set(o, 1);
        if (seeds.size() == 10_000 || o == origins - 1) {
          store.addScope(scope);
          store.addCandidates(seeds);
          scope.clear();
          seeds.clear();
        }
      }
      known.set(origins);
      double seedSeconds = seconds(System.nanoTime() - seedStart);
      print("seeds: %d origins in scope and %d seeds added in %.1f s", origins, origins, seedSeconds);

      long fillStart = System.nanoTime();
      long fillCpu = cpuNanos();
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        workers.add(Thread.ofPlatform().name("crawler-" + t).start(() -> crawl(store, id)));
      }
      long lastKnown = known.get();
      long lastLinks = 0;
      long lastAt = fillStart;
      while (workers.stream().anyMatch(Thread::isAlive)) {
        workers.get(0).join(10_000);
        long at = System.nanoTime();
        long k = store.urlCount();
        long l = linksOffered.get();
        print("  %6.0f s  known %,d  window: %,.0f links/s  %,.0f new URLs/s  heap max %d MiB (after GC %d)  rss %d MiB  disk %.2f GiB",
            seconds(at - fillStart), k, (l - lastLinks) / seconds(at - lastAt),
            (k - lastKnown) / seconds(at - lastAt), maxHeapUsed >> 20, maxHeapAfterGc >> 20,
            rssMiB("VmRSS"),
            directoryBytes(dir) / (double) (1L << 30));
        lastKnown = k;
        lastLinks = l;
        lastAt = at;
      }
      for (Thread worker : workers) worker.join();
      double fillSeconds = seconds(System.nanoTime() - fillStart);
      double fillCpuSeconds = seconds(cpuNanos() - fillCpu);
      long expected = expectedUrls();
      long count = store.urlCount();
      print("fill: %,d pages recorded, %,d links offered, %,d URLs known (expected %,d: %s) in %.1f s",
          pages.get(), linksOffered.get(), count, expected, count == expected ? "exact" : "WRONG",
          fillSeconds);
      print("fill rate: %,.0f links/s (add+dedup), %,.0f new URLs/s, %,.0f pages/s",
          linksOffered.get() / fillSeconds, (count - origins) / fillSeconds, pages.get() / fillSeconds);
      print("fill CPU: %.1f s of process CPU (all threads, RocksDB's included): %,.0f links per CPU-second",
          fillCpuSeconds, linksOffered.get() / fillCpuSeconds);
      if (count != expected) throw new AssertionError("URL count " + count + " != " + expected);

      pop(store);
    } finally {
      long closeStart = System.nanoTime();
      store.close();
      print("close: %.1f s", seconds(System.nanoTime() - closeStart));
    }
    long written = ioBytes("write_bytes");
    print("I/O: %.2f GiB written (WAL, flushes, compactions), %.2f GiB read: write amplification %.1f"
        + " (bytes written per byte left on disk)", written / (double) (1L << 30),
        ioBytes("read_bytes") / (double) (1L << 30), written / (double) directoryBytes(dir));
    print("total: %.1f s; disk %.2f GiB (%,.1f bytes/URL); heap max used %d MiB (after GC %d MiB); RSS max %d MiB",
        seconds(System.nanoTime() - t0), directoryBytes(dir) / (double) (1L << 30),
        directoryBytes(dir) / (double) expectedUrls(), maxHeapUsed >> 20, maxHeapAfterGc >> 20,
        rssMiB("VmHWM"));
    sampler.interrupt();
  }

  /** One crawler thread: records pages of its own origins until the target is reached. */
  private void crawl(RocksCrawlStore store, int id) {
    SplittableRandom random = new SplittableRandom(id * 7919L + 1);
    int owned = (origins - id + threads - 1) / threads;
    List<Candidate> links = new ArrayList<>(LINKS_PER_PAGE);
    long myPages = 0;
    while (known.get() < target) {
      int origin = id + threads * random.nextInt(owned);
      int page = crawled[origin]++;
      String pageUrl = url(origin, page);
      Optional<String> from = Optional.of(pageUrl);
      links.clear();
      int existing = urls.get(origin);
      for (int i = 0; i < 10; i++) links.add(link(random.nextInt(Math.min(existing, 10)), origin, from));
      int first = urls.getAndAdd(origin, 20);
      for (int i = 0; i < 20; i++) links.add(link(first + i, origin, from));
      for (int i = 0; i < 5; i++) links.add(link(random.nextInt(existing), origin, from));
      for (int i = 0; i < 2; i++) {
        int other = random.nextInt(origins);
        links.add(link(urls.getAndIncrement(other), other, from));
      }
      for (int i = 0; i < 3; i++) {
        int other = random.nextInt(origins);
        links.add(link(random.nextInt(urls.get(other)), other, from));
      }
      known.addAndGet(22);
      CrawlRecord crawl = new CrawlRecord(pageUrl, NOW, Outcome.FETCHED, 200, 120,
          Optional.of("text/html"), 31_000, Optional.of("sha1:2JMO6TFQWX6MYUPZEYGUA6G3VIUYJSJF"),
          Optional.empty(), Optional.empty(), false, false, Optional.of("\"5f3a-61c2\""),
          Optional.empty(), NOW.plus(Duration.ofDays(7)));
      store.record(crawl, links);
      linksOffered.addAndGet(LINKS_PER_PAGE);
      myPages++;
    }
    pages.addAndGet(myPages);
  }

  private static Candidate link(int n, int origin, Optional<String> from) {
    return new Candidate(url(origin, n), 1, from);
  }

  private long expectedUrls() {
    long sum = 0;
    for (int o = 0; o < origins; o++) sum += urls.get(o);
    return sum;
  }

  /** Pops due candidates the way a crawl loop's first turns do: 64 of an origin at a time. */
  private void pop(RocksCrawlStore store) {
    SplittableRandom random = new SplittableRandom(42);
    int calls = Math.min(origins, 200_000);
    long got = 0;
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      List<DueCandidate> due = store.due(Origin.ofUrl(originUrl(random.nextInt(origins))), NOW, 64);
      got += due.size();
    }
    double s = seconds(System.nanoTime() - start);
    print("pop: %,d due() calls (64 each, random origins) returned %,d URLs in %.1f s: %,.0f URLs/s, %,.0f calls/s",
        calls, got, s, got / s, calls / s);
  }

  /** Reopens a filled store and gets a crawl going: open, scope(), the first due() calls. */
  private void resume() {
    long start = System.nanoTime();
    var threadBean = ManagementFactory.getThreadMXBean();
    long cpuStart = threadBean.getCurrentThreadCpuTime();
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, MEMORY)) {
      long opened = System.nanoTime();
      var scope = store.scope();
      long scoped = System.nanoTime();
      int calls = Math.min(scope.size(), 1000);
      long got = 0;
      int i = 0;
      for (Origin origin : scope) {
        if (i++ == calls) break;
        got += store.due(origin, NOW, 64).size();
      }
      long first = System.nanoTime();
      print("resume: %,d URLs, %,d origins; open %.2f s, scope() %.2f s, first %d due() calls %.2f s"
          + " (%,d URLs); total %.2f s; heap max %d MiB; RSS max %d MiB",
          store.urlCount(), scope.size(), seconds(opened - start), seconds(scoped - opened), calls,
          seconds(first - scoped), got, seconds(first - start), heapUsedNow() >> 20, rssMiB("VmHWM"));
      print("resume CPU: %.2f s of the resuming thread's CPU (wall time includes waiting for a core)",
          seconds(threadBean.getCurrentThreadCpuTime() - cpuStart));
    }
  }

  /** How fast URL strings alone are generated, to separate it from the store's cost. */
  private void generationRate() {
    long start = System.nanoTime();
    long bytes = 0;
    for (long i = 0; i < target; i++) bytes += url((int) (i % origins), (int) (i / origins)).length();
    double s = seconds(System.nanoTime() - start);
    print("urls: %,d generated in %.2f s (%,.0f/s on one thread), mean length %.1f bytes",
        target, s, target / s, bytes / (double) target);
  }

  private void sampleHeap() {
    while (!Thread.currentThread().isInterrupted()) {
      maxHeapUsed = Math.max(maxHeapUsed, heapUsedNow());
      maxHeapAfterGc = Math.max(maxHeapAfterGc, heapAfterGc());
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Peak heap use as the collectors saw it: the sum of the heap pools' peaks. */
  private static long heapUsedNow() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) used += pool.getUsage().getUsed();
    }
    return used;
  }

  /** Heap in use after the latest collection of each pool: what is live, not garbage. */
  private static long heapAfterGc() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        used += pool.getCollectionUsage().getUsed();
      }
    }
    return used;
  }

  /** CPU time of the whole process, native threads included: comparable on a noisy machine. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** A counter of /proc/self/io: bytes this process made the kernel write to or read from disk. */
  static long ioBytes(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith(field + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
      return -1;
    } catch (IOException e) {
      return -1;
    }
  }

  static long rssMiB(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field + ":")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
        }
      }
      return -1;
    } catch (IOException e) {
      return -1;
    }
  }

  static long directoryBytes(Path dir) {
    if (!Files.exists(dir)) return 0;
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0; // deleted by a compaction meanwhile
        }
      }).sum();
    } catch (IOException | UncheckedIOException e) {
      return -1;
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) Files.delete(p);
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static void print(String format, Object... args) {
    System.out.printf(Locale.ROOT, format + "%n", args);
    System.out.flush();
  }
}
