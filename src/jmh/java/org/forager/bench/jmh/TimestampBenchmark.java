package org.forager.bench.jmh;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.forager.warc.InstantText;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nanoseconds a timestamp of the crawl log's lines (nanosecond precision) and of a WARC record's date
 * (millisecond precision): {@link Instant#toString()} against {@link InstantText#of}, which writes the
 * same text. A crawl writes about four a request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TimestampBenchmark {

  private final Instant[] instants = new Instant[64];
  private int next;

  public TimestampBenchmark() {
    Instant start = Instant.parse("2026-12-03T21:38:54.025054614Z");
    for (int i = 0; i < instants.length; i++) {
      Instant at = start.plusNanos(i * 7_919_113L);
      instants[i] = i % 2 == 0 ? at : at.truncatedTo(ChronoUnit.MILLIS);
    }
  }

  @Benchmark
  public String jdk() {
    return instants[next++ & 63].toString();
  }

  @Benchmark
  public String direct() {
    return InstantText.of(instants[next++ & 63]);
  }
}
