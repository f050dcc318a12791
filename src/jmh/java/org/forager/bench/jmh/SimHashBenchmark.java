package org.forager.bench.jmh;

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

/** Simhashes per second of the 30 KB page ({@link SimHash#ofHtml}: decode, skip markup, shingle, vote). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SimHashBenchmark {

  private byte[] body;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
  }

  @Benchmark
  public long simhash() {
    return SimHash.ofHtml(body, StandardCharsets.UTF_8).orElseThrow();
  }
}
