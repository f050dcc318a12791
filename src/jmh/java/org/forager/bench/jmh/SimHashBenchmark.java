package org.forager.bench.jmh;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.forager.dedup.SimHash;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Simhashes per second of the 30 KB page ({@link SimHash#ofHtml}: decode, skip markup, shingle,
 * vote): as UTF-8 bytes (the crawl's usual path), decoded as windows-1252 (the String path), and
 * with a fifth of its words in other scripts (UTF-8's multi-byte characters).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SimHashBenchmark {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private byte[] body;
  private byte[] nonAsciiBody;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
    nonAsciiBody = nonAscii(body);
  }

  /** The page with a fifth of its words in other scripts. */
  static byte[] nonAscii(byte[] body) {
    // Common words, so about a fifth of the text: accented Latin, Cyrillic, Greek, CJK.
    return new String(body, StandardCharsets.UTF_8).replace(" the ", " thé ").replace(" of ", " из ")
        .replace(" and ", " καί ").replace(" to ", " 東京 ").replace(" in ", " straße ")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public long simhash() {
    return SimHash.ofHtml(body, StandardCharsets.UTF_8).orElseThrow();
  }

  @Benchmark
  public long simhashWindows1252() {
    return SimHash.ofHtml(body, WINDOWS_1252).orElseThrow();
  }

  @Benchmark
  public long simhashNonAscii() {
    return SimHash.ofHtml(nonAsciiBody, StandardCharsets.UTF_8).orElseThrow();
  }
}
