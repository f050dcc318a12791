package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.forager.warc.RecordCodecs;
import org.forager.warc.RecordCompression;
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
 * The compression of real crawl records, one at a time as the WARC writer compresses them: the
 * first {@code records} records of a WARC file given as {@code -p warc=FILE} (uncompressed, or
 * {@code .warc.gz}; e.g. one {@code bench/e2e} wrote, whose records are the synthetic web's pages,
 * its robots.txt and 404s, and a request record for each). One operation compresses the next record
 * of the corpus, round and round: the score is the mean time a record. {@code codec} is {@code
 * isal-N} (igzip's own level N, 0 its fastest), {@code libdeflate-N}, {@code zlib-N} (the JDK's
 * zlib as the crawl uses it) or {@code zstd-N}. The setup prints the corpus and each codec's bytes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class WarcCorpusBenchmark {

  @Param({"isal-0", "isal-1", "libdeflate-1"})
  public String codec;

  /** A WARC file; no default: the corpus is the reader's own crawl's. */
  @Param({""})
  public String warc;

  @Param({"3000"})
  public int records;

  private byte[][] corpus;
  private UnaryOperator<byte[]> compressor;
  private int next;

  @Setup
  public void setUp() throws IOException {
    if (warc.isEmpty()) throw new IllegalArgumentException("give the corpus: -p warc=FILE (a WARC, e.g. bench/e2e's)");
    corpus = read(Path.of(warc), records).toArray(new byte[0][]);
    compressor = codec(codec);
    long plain = 0;
    long packed = 0;
    for (byte[] record : corpus) {
      plain += record.length;
      packed += compressor.apply(record).length;
    }
    System.out.printf("%s: %,d records, %,d bytes -> %,d bytes (%.4f)%n", codec, corpus.length, plain, packed,
        (double) packed / plain);
  }

  /**
   * The codec named {@code isal-N}, {@code libdeflate-N}, {@code zlib-N} or {@code zstd-N}, or
   * {@code isal-fitted} (igzip level 0 with Huffman tables fitted to the records: gzip level 1's).
   */
  static UnaryOperator<byte[]> codec(String name) {
    if (name.equals("isal-fitted")) return RecordCodecs.isalFitted();
    String[] parts = name.split("-");
    int level = Integer.parseInt(parts[1]);
    return switch (parts[0]) {
      case "isal" -> RecordCodecs.isal(level);
      case "libdeflate" -> RecordCodecs.of(RecordCompression.gzip(level, RecordCompression.GzipEngine.LIBDEFLATE));
      case "zlib" -> RecordCodecs.of(RecordCompression.gzip(level, RecordCompression.GzipEngine.ZLIB));
      case "zstd" -> RecordCodecs.of(RecordCompression.zstd(level));
      default -> throw new IllegalArgumentException("unknown codec " + name);
    };
  }

  @Benchmark
  public int record() {
    byte[] record = corpus[next];
    next = next + 1 == corpus.length ? 0 : next + 1;
    return compressor.apply(record).length;
  }

  /** The first {@code limit} records, each as its bytes in the file (header, block, CRLF CRLF). */
  static List<byte[]> read(Path file, int limit) throws IOException {
    List<byte[]> out = new ArrayList<>();
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
      while (out.size() < limit) {
        byte[] head = headerOf(in);
        if (head.length == 0) break;
        long length = contentLength(new String(head, ISO_8859_1));
        byte[] record = new byte[Math.toIntExact(head.length + length + 4)];
        System.arraycopy(head, 0, record, 0, head.length);
        int got = in.readNBytes(record, head.length, record.length - head.length);
        if (got < record.length - head.length) break; // the file's last record, cut short
        out.add(record);
      }
    }
    if (out.isEmpty()) throw new IOException("no WARC records in " + file);
    return out;
  }

  /** The WARC header up to and with its blank line; empty at the end of the file. */
  private static byte[] headerOf(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(1024);
    int matched = 0;
    for (int b; matched < 4 && (b = in.read()) >= 0; ) {
      head.write(b);
      matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : b == '\r' ? 1 : 0;
    }
    return matched == 4 ? head.toByteArray() : new byte[0];
  }

  private static long contentLength(String header) throws IOException {
    for (String line : header.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    throw new IOException("WARC record without Content-Length");
  }
}
