package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.function.UnaryOperator;
import java.util.zip.Deflater;
import org.forager.warc.RecordCodecs;
import org.forager.warc.RecordCompression;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcWriter;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The compression of one page's WARC records, alone: the serialized request record and the
 * response record of the 30 KB page, each compressed on its own as the WARC writer must (one gzip
 * member per record, WARC 1.1 annex D; one zstd frame per record, the IIPC warc-zstd proposal).
 * One operation is one page ({@link #page}) or its response record alone ({@link #response}).
 * {@code codec} is {@code gzip-N} (the JDK's zlib deflate at level N, a pooled {@link Deflater} plus
 * CRC-32, as {@code GzipMembers} does), {@code libdeflate-N} or {@code isal-N} (the crawl's own
 * codec with {@code warc.gzip_engine: libdeflate} or {@code isal}; both fail with the reason where
 * the system lacks the library), {@code zstd-N} (zstd-jni, a reused {@link ZstdCompressCtx} at level
 * N, with the content checksum) or {@code zstdOneShot-N} ({@link Zstd#compress(byte[], int)}, a new
 * native context per record). The setup prints each codec's output size for the page and the record.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// zstd-jni loads a native library: JDK 24+ warns in every fork unless native access is granted.
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class WarcCompressionBenchmark {

  @Param({"gzip-1", "gzip-6", "libdeflate-1", "isal-1", "isal-2", "isal-3", "zstd-1", "zstd-2", "zstd-3",
      "zstdOneShot-1"})
  public String codec;

  private byte[] request;
  private byte[] response;
  private Deflater deflater;
  private ZstdCompressCtx zstd;
  private UnaryOperator<byte[]> crawlCodec;
  private int level;
  private long crcs;

  @Setup
  public void setUp() throws IOException {
    byte[] body = SyntheticSite.page();
    URI uri = URI.create(SyntheticSite.PAGE_URL);
    byte[] requestHead = ("GET /news/2026/11/climate-talks-1234.html HTTP/1.1\r\nHost: www.example.org\r\n"
        + "User-Agent: ForagerBot/0.1 (+https://forager.example/bot)\r\nAccept: text/html,*/*;q=0.8\r\n"
        + "Accept-Encoding: gzip, deflate, br\r\n\r\n").getBytes(ISO_8859_1);
    byte[] responseHead = ("HTTP/1.1 200 OK\r\nDate: Sat, 21 Nov 2026 09:00:00 GMT\r\nServer: nginx\r\n"
        + "Content-Type: text/html; charset=utf-8\r\nContent-Length: " + body.length + "\r\n"
        + "Cache-Control: max-age=60, public\r\nETag: \"5f2a-64c1e2\"\r\n"
        + "Last-Modified: Sat, 21 Nov 2026 08:00:00 GMT\r\nVary: Accept-Encoding\r\n\r\n").getBytes(ISO_8859_1);
    byte[] block = new byte[responseHead.length + body.length];
    System.arraycopy(responseHead, 0, block, 0, responseHead.length);
    System.arraycopy(body, 0, block, responseHead.length, body.length);
    Instant date = Instant.parse("2026-11-21T09:00:00Z");
    request = serialize(new WarcRequest.Builder(uri).date(date).body(MediaType.HTTP_REQUEST, requestHead).build());
    response = serialize(new WarcResponse.Builder(uri).date(date).body(MediaType.HTTP_RESPONSE, block).build());

    String[] parts = codec.split("-");
    level = Integer.parseInt(parts[1]);
    if (parts[0].equals("gzip")) deflater = new Deflater(level, true);
    if (parts[0].equals("libdeflate") || parts[0].equals("isal")) {
      RecordCompression.GzipEngine engine = parts[0].equals("isal")
          ? RecordCompression.GzipEngine.ISAL : RecordCompression.GzipEngine.LIBDEFLATE;
      crawlCodec = RecordCodecs.of(RecordCompression.gzip(level, engine)); // throws, saying why, without the library
    }
    if (parts[0].equals("zstd")) {
      zstd = new ZstdCompressCtx();
      zstd.setLevel(level);
      zstd.setChecksum(true);
      zstd.setContentSize(true);
    }
    System.out.printf("%s: records %,d + %,d bytes -> %,d bytes (the response record alone: %,d)%n", codec,
        request.length, response.length, page(), response());
  }

  @TearDown
  public void tearDown() {
    if (deflater != null) deflater.end();
    if (zstd != null) zstd.close();
  }

  @Benchmark
  public int page() {
    return compress(request) + compress(response);
  }

  /** The response record alone (30,002 bytes): the record that costs. */
  @Benchmark
  public int response() {
    return compress(response);
  }

  private int compress(byte[] record) {
    if (deflater != null) return gzip(record);
    if (crawlCodec != null) return crawlCodec.apply(record).length;
    if (zstd != null) return zstd.compress(record).length;
    return Zstd.compress(record, level).length;
  }

  private int gzip(byte[] plain) {
    CRC32 crc = new CRC32();
    crc.update(plain);
    deflater.setInput(plain);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 2 + 64);
    out.write(new byte[10], 0, 10); // header
    byte[] buffer = new byte[16 * 1024];
    while (!deflater.finished()) out.write(buffer, 0, deflater.deflate(buffer));
    deflater.reset();
    out.write(new byte[8], 0, 8); // trailer: CRC and length
    crcs += crc.getValue(); // kept, so the CRC is not optimized away
    return out.toByteArray().length;
  }

  private static byte[] serialize(WarcRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new WarcWriter(Channels.newChannel(out), WarcCompression.NONE).write(record);
    return out.toByteArray();
  }
}
