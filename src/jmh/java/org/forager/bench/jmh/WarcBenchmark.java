package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.warc.BodyDigests;
import org.forager.warc.Digests;
import org.forager.warc.RecordCompression;
import org.forager.warc.WarcRecorder;
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
 * Fetches per second through {@link WarcRecorder#write}: a 200 response with the 30 KB page (sent
 * without content coding, so the stored body is the page) becomes a request and a response record,
 * each serialized, digested (block and payload SHA-1) and compressed as its own gzip member or zstd
 * frame ({@code codec}: {@code gzip-N} as the crawl makes it, with libdeflate where installed, {@code
 * zlib-N} with the JDK's zlib, or {@code zstd-N}; N the level), then appended to the current
 * file. Files rotate at the crawl's default 1 GiB and are deleted after the trial.
 *
 * <p>{@link #pageBefore} and {@link #page} add the crawl log's digest to the write, as the crawl
 * loop does for every page: before issue 15 with a SHA-1 of its own (three per page), now with
 * {@link BodyDigests} (one SHA-1 of the body for the log and the payload digest, two per page).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// zstd-jni loads a native library: JDK 24+ warns in every fork unless native access is granted.
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class WarcBenchmark {

  @Param({"gzip-1", "zlib-1", "zstd-1", "zstd-3"})
  public String codec;

  private Path dir;
  private WarcRecorder recorder;
  private FetchResult.Response response;

  @Setup
  public void setUp() {
    dir = ScratchDir.create("warc");
    String[] parts = codec.split("-");
    int level = Integer.parseInt(parts[1]);
    RecordCompression compression = switch (parts[0]) {
      case "zstd" -> RecordCompression.zstd(level);
      case "zlib" -> RecordCompression.gzip(level, RecordCompression.GzipEngine.ZLIB);
      default -> RecordCompression.gzip(level);
    };
    recorder = WarcRecorder.open(dir, WarcRecorder.DEFAULT_MAX_FILE_BYTES, compression, "Forager/jmh");
    response = fetched();
  }

  /** The fetch written: the synthetic 30 KB page with a real server's headers (WarcCpuTime's too). */
  static FetchResult.Response fetched() {
    byte[] body = SyntheticSite.page();
    byte[] requestHead = ("GET /news/2026/11/climate-talks-1234.html HTTP/1.1\r\nHost: www.example.org\r\n"
        + "User-Agent: ForagerBot/0.1 (+https://forager.example/bot)\r\nAccept: text/html,*/*;q=0.8\r\n"
        + "Accept-Encoding: gzip, deflate, br\r\n\r\n").getBytes(ISO_8859_1);
    List<Header> headers = List.of(
        new Header("Date", "Sat, 21 Nov 2026 09:00:00 GMT"), new Header("Server", "nginx"),
        new Header("Content-Type", "text/html; charset=utf-8"),
        new Header("Content-Length", String.valueOf(body.length)),
        new Header("Cache-Control", "max-age=60, public"), new Header("ETag", "\"5f2a-64c1e2\""),
        new Header("Last-Modified", "Sat, 21 Nov 2026 08:00:00 GMT"), new Header("Vary", "Accept-Encoding"),
        new Header("X-Cache", "HIT"), new Header("Strict-Transport-Security", "max-age=31536000"));
    return new FetchResult.Response(SyntheticSite.PAGE_URL, Instant.parse("2026-11-21T09:00:00Z"), 120,
        requestHead, Optional.of("203.0.113.7"), "HTTP/1.1", 200, "OK", headers, body, body, Optional.empty());
  }

  @TearDown
  public void tearDown() {
    recorder.close();
    ScratchDir.delete(dir);
  }

  @Benchmark
  public void write() {
    recorder.write(response);
  }

  /** The write and the crawl log's digest as the crawl loop did them before: the body hashed three times. */
  @Benchmark
  public String pageBefore() {
    recorder.write(response);
    return Digests.sha1Base32(response.body());
  }

  /** The write and the crawl log's digest as the crawl loop does them: one SHA-1 of the body for both. */
  @Benchmark
  public String page() {
    BodyDigests digests = BodyDigests.of(response);
    recorder.write(response, digests);
    return digests.content();
  }
}
