package org.forager.bench.jmh;

import java.nio.charset.Charset;
import java.util.concurrent.TimeUnit;
import org.forager.url.UrlNormalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost per link of the host and query rules of issue 20, {@link UrlNormalizer#resolve} in a UTF-8
 * and a windows-1252 document: an ASCII host (no IDNA at all), a {@code xn--} host (only lower-cased),
 * Unicode hosts (UTS #46 through ICU4J), and a non-ASCII query (in windows-1252 "percent-encode after
 * encoding", a Java encoder per query).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class HostBenchmark {

  @Param({"https://www.example.org/a", "https://xn--bcher-kva.example/a", "https://b\u00fccher.example/a",
      "https://\u6771\u4eac.example.jp/a", "/s?q=caf\u00e9&lang=fr"})
  public String href;

  @Param({"UTF-8", "windows-1252"})
  public String encoding;

  private Charset charset;

  @Setup
  public void setUp() {
    charset = Charset.forName(encoding);
  }

  @Benchmark
  public Object resolve() {
    return UrlNormalizer.resolve("https://www.example.org/", href, charset);
  }
}
