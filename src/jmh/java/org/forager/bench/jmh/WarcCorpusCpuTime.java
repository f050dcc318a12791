package org.forager.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@link WarcCorpusBenchmark}'s codecs timed by the thread's CPU clock, for a machine shared with
 * other work: the codecs take turns, a whole pass over the corpus each, for many rounds after a
 * warm-up, so that each round compares them under the same load; prints each codec's best and
 * median CPU µs a record and its bytes against the first codec's.
 *
 * <pre>java -cp target/benchmarks.jar org.forager.bench.jmh.WarcCorpusCpuTime FILE RECORDS [MIN-MAX] CODEC...</pre>
 *
 * e.g. {@code /tmp/bench.warc 6000 isal-0 isal-1 libdeflate-1 zlib-1}; {@code 0-4095} or {@code
 * 4096-99999999} keeps only the records of those sizes (of the first {@code RECORDS}).
 */
public final class WarcCorpusCpuTime {

  private WarcCorpusCpuTime() {}

  public static void main(String[] args) throws Exception {
    List<byte[]> corpus = WarcCorpusBenchmark.read(Path.of(args[0]), Integer.parseInt(args[1]));
    int first = 2;
    if (args[2].matches("\\d+-\\d+")) {
      long min = Long.parseLong(args[2].split("-")[0]);
      long max = Long.parseLong(args[2].split("-")[1]);
      corpus = corpus.stream().filter(r -> r.length >= min && r.length <= max).toList();
      first = 3;
    }
    List<String> names = List.of(args).subList(first, args.length);
    List<UnaryOperator<byte[]>> codecs = new ArrayList<>();
    for (String name : names) codecs.add(WarcCorpusBenchmark.codec(name));
    long plain = corpus.stream().mapToLong(r -> r.length).sum();
    long[] packed = new long[codecs.size()];
    for (int c = 0; c < codecs.size(); c++) packed[c] = pass(corpus, codecs.get(c));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int round = 0; round < 5; round++) for (UnaryOperator<byte[]> codec : codecs) pass(corpus, codec);
    int rounds = 15;
    double[][] micros = new double[codecs.size()][rounds];
    for (int round = 0; round < rounds; round++) {
      for (int c = 0; c < codecs.size(); c++) {
        long start = threads.getCurrentThreadCpuTime();
        pass(corpus, codecs.get(c));
        micros[c][round] = (threads.getCurrentThreadCpuTime() - start) / 1e3 / corpus.size();
      }
    }
    System.out.printf("%,d records, %,d bytes%n", corpus.size(), plain);
    for (int c = 0; c < codecs.size(); c++) {
      Arrays.sort(micros[c]);
      System.out.printf("%-14s CPU µs a record best %6.2f, median %6.2f; %,d bytes (%.4f of the input, %+.1f %% against %s)%n",
          names.get(c), micros[c][0], micros[c][rounds / 2], packed[c], (double) packed[c] / plain,
          100.0 * (packed[c] - packed[0]) / packed[0], names.get(0));
    }
  }

  private static long pass(List<byte[]> corpus, UnaryOperator<byte[]> codec) {
    long bytes = 0;
    for (byte[] record : corpus) bytes += codec.apply(record).length;
    return bytes;
  }
}
