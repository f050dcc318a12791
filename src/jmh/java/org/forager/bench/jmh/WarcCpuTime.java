package org.forager.bench.jmh;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.forager.fetch.FetchResult;
import org.forager.warc.BodyDigests;
import org.forager.warc.RecordCompression;
import org.forager.warc.WarcRecorder;

/**
 * {@link WarcBenchmark#page}'s work timed by the thread's CPU clock instead of the wall clock, for a
 * machine shared with other work (where JMH's wall-clock errors grow larger than the differences):
 * the page's fetch written through {@link WarcRecorder#write} (request and response records
 * serialized, digested, compressed at {@code gzip_level} 1, appended to a file under {@code
 * java.io.tmpdir}), after a warm-up, in batches; prints the best and median batch's CPU µs a page
 * , the bytes the thread allocated a page and the file's bytes a page. Uses only the public API, so the same class runs
 * against an older build's jar to compare:
 *
 * <pre>java -Djava.io.tmpdir=/dev/shm -cp target/benchmarks.jar org.forager.bench.jmh.WarcCpuTime [level]</pre>
 */
public final class WarcCpuTime {

  private WarcCpuTime() {}

  public static void main(String[] args) throws Exception {
    RecordCompression compression = args.length > 0 && args[0].equals("fastest")
        ? RecordCompression.gzip(RecordCompression.FASTEST) : RecordCompression.gzip(args.length > 0 ? Integer.parseInt(args[0]) : 1);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().threadId();
    Path dir = ScratchDir.create("warc-cpu");
    int warmUp = 30_000;
    int batches = 40;
    int batch = 2_000;
    try (WarcRecorder recorder = WarcRecorder.open(dir, 256L << 20, compression, "Forager/jmh")) {
      FetchResult.Response response = WarcBenchmark.fetched();
      for (int i = 0; i < warmUp; i++) page(recorder, response);
      double[] cpu = new double[batches];
      long allocated = threads.getThreadAllocatedBytes(self);
      for (int b = 0; b < batches; b++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < batch; i++) page(recorder, response);
        cpu[b] = (threads.getCurrentThreadCpuTime() - start) / 1e3 / batch;
      }
      allocated = threads.getThreadAllocatedBytes(self) - allocated;
      Arrays.sort(cpu);
      System.out.printf("%s: CPU µs a page best %.2f, median %.2f; %,d bytes allocated a page",
          compression.describe(), cpu[0], cpu[batches / 2], allocated / ((long) batches * batch));
    }
    try (Stream<Path> files = Files.list(dir)) {
      long bytes = files.mapToLong(f -> f.toFile().length()).sum();
      System.out.printf("; %,d bytes a page in the files%n", bytes / (warmUp + (long) batches * batch));
    } finally {
      ScratchDir.delete(dir);
    }
  }

  private static void page(WarcRecorder recorder, FetchResult.Response response) {
    BodyDigests digests = BodyDigests.of(response);
    recorder.write(response, digests);
  }
}
