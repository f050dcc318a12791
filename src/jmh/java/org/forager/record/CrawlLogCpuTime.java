package org.forager.record;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig;
import org.forager.fetch.Outcome;

/**
 * The CPU a crawl log line costs, staged in the log's tail ({@link StagedLogWrites}) or written with a
 * {@code write(2)} a line as before ({@link BufferedLogWrites}): {@link CrawlLog#write} of a page's
 * action (about 900 bytes, as a crawl's) from one thread, with the crawl's rotation policy, into a
 * log under {@code java.io.tmpdir}; after a warm-up, in batches. Prints the best, first quartile and median batch's
 * CPU µs a line of the writing thread and of the whole process (the flusher, the collector and the
 * JIT included). By the thread's CPU clock, for a machine shared with other work. In the benchmarks'
 * sources (src/jmh) for the package-private choice of writes:
 *
 * <pre>java -cp target/benchmarks.jar org.forager.record.CrawlLogCpuTime staged|plain</pre>
 */
public final class CrawlLogCpuTime {

  private CrawlLogCpuTime() {}

  public static void main(String[] args) throws Exception {
    boolean staged = args.length == 0 || args[0].equals("staged");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean process =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Path dir = Files.createTempDirectory("forager-jmh-crawl-log-");
    Path file = dir.resolve("logs/crawl.jsonl");
    int warmUp = 60_000;
    int batches = 40;
    int batch = 10_000;
    CrawlAction[] actions = new CrawlAction[64];
    for (int i = 0; i < actions.length; i++) actions[i] = action(i);
    try (CrawlLog log = CrawlLog.open(file, Optional.of(CrawlConfig.Log.defaults()), Clock.systemUTC(), staged,
        Duration.ofMillis(CrawlLog.FLUSH_MILLIS))) {
      for (int i = 0; i < warmUp; i++) log.write(actions[i & 63]);
      double[] thread = new double[batches];
      double[] all = new double[batches];
      for (int b = 0; b < batches; b++) {
        long startThread = threads.getCurrentThreadCpuTime();
        long startAll = process.getProcessCpuTime();
        for (int i = 0; i < batch; i++) log.write(actions[i & 63]);
        thread[b] = (threads.getCurrentThreadCpuTime() - startThread) / 1e3 / batch;
        all[b] = (process.getProcessCpuTime() - startAll) / 1e3 / batch;
      }
      Arrays.sort(thread);
      Arrays.sort(all);
      System.out.printf("%s: CPU µs a line, thread best %.3f p25 %.3f median %.3f; process best %.3f p25 %.3f "
          + "median %.3f (process CPU counted in 10 ms ticks)%n", staged ? "staged" : "plain", thread[0], thread[batches / 4],
          thread[batches / 2], all[0], all[batches / 4], all[batches / 2]);
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
      }
    }
  }

  /** A fetched page's action, its line 816 bytes, about a bench/e2e crawl's. */
  private static CrawlAction action(int i) {
    String path = "/articles/" + i + "/" + "section-".repeat(60) + i;
    return new CrawlAction(Instant.parse("2026-12-01T00:00:00Z").plusMillis(i), CrawlAction.Kind.PAGE,
        "https://www.example-" + i + ".org" + path, Outcome.FETCHED, 200, Optional.of("text/html; charset=utf-8"),
        48_213 + i, 37, Optional.empty(), Optional.of("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"), 1, 1000,
        Optional.empty(), 0, Optional.of("93.184.216." + i));
  }
}
