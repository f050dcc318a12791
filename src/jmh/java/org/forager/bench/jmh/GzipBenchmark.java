package org.forager.bench.jmh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
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
 * Gzip members per second of the 30 KB page with the JDK's {@link GZIPOutputStream} (zlib) at
 * levels 1, 6 (the default, which the WARC writer uses) and 9, with the same 16 KiB buffer as the
 * WARC writer: what compression costs per page and what another level would save or cost. The
 * setup prints each level's compressed size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class GzipBenchmark {

  @Param({"1", "6", "9"})
  public int level;

  private byte[] body;

  @Setup
  public void setUp() throws IOException {
    body = SyntheticSite.page();
    System.out.printf("gzip level %d: %,d -> %,d bytes%n", level, body.length, gzip().length);
  }

  @Benchmark
  public byte[] gzip() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 2);
    try (OutputStream gzip = new LeveledGzip(out, level)) {
      gzip.write(body);
    }
    return out.toByteArray();
  }

  /** GZIPOutputStream has no level parameter; its deflater is reachable from a subclass. */
  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(OutputStream out, int level) throws IOException {
      super(out, 16 * 1024);
      def.setLevel(level);
    }
  }
}
