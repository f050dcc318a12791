package org.forager.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.forager.warc.Digests;
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

/** Digests per second of {@link Digests#sha1Base32} over the 30 KB page (the crawl log's digest). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class DigestBenchmark {

  private byte[] body;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
  }

  @Benchmark
  public String sha1Base32() {
    return Digests.sha1Base32(body);
  }
}
