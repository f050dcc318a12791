package org.forager.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.forager.dedup.SimHash;

/**
 * {@link SimHashBenchmark}'s pages timed by the thread's CPU clock instead of the wall clock, for a
 * machine shared with other work (where JMH's errors grow as large as the differences): the
 * simhash of one page ({@code utf8}, {@code nonAscii}, {@code accented} or {@code windows1252}),
 * after a warm-up, in batches of 200; prints the value, and the best and median batch's CPU µs a
 * page. Uses only the public API, so the same class runs against an older build's jar to compare
 * (one JVM per run: C2's code differs from one JVM to the next):
 *
 * <pre>java -cp target/benchmarks.jar org.forager.bench.jmh.SimHashCpuTime [utf8|nonAscii|accented|windows1252]</pre>
 */
public final class SimHashCpuTime {

  private SimHashCpuTime() {}

  public static void main(String[] args) {
    String which = args.length > 0 ? args[0] : "utf8";
    byte[] body = switch (which) {
      case "nonAscii" -> SimHashBenchmark.nonAscii(SyntheticSite.page());
      case "accented" -> SimHashBenchmark.accented(SyntheticSite.page());
      default -> SyntheticSite.page();
    };
    Charset charset = which.equals("windows1252") ? Charset.forName("windows-1252") : StandardCharsets.UTF_8;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long value = 0;
    for (int i = 0; i < 50_000; i++) value = SimHash.ofHtml(body, charset).orElseThrow();
    int batches = 100;
    int batch = 200;
    double[] cpu = new double[batches];
    for (int b = 0; b < batches; b++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < batch; i++) value ^= SimHash.ofHtml(body, charset).orElseThrow();
      cpu[b] = (threads.getCurrentThreadCpuTime() - start) / 1e3 / batch;
    }
    Arrays.sort(cpu);
    System.out.printf("%s: simhash %016x; CPU µs a page best %.2f, median %.2f%n",
        which, SimHash.ofHtml(body, charset).orElseThrow(), cpu[0], cpu[batches / 2]);
  }
}
