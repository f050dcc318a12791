package org.forager.bench.jmh;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.forager.fetch.FetchResult;
import org.forager.warc.BodyDigests;
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

/**
 * Digests per second of {@link Digests#sha1Base32} over the 30 KB page (the crawl log's digest, and
 * what the WARC block digest costs), and of {@link BodyDigests#of} for a response without content
 * coding (the payload digest and the log's digest, one SHA-1 for both). {@link #pageBefore} and
 * {@link #page} are all the SHA-1 work of a page, without the WARC write around it: before issue 15
 * the block (head and body), the payload and the log's digest apart; {@link #pageTwoPasses} the block
 * and one digest of the body for the other two, with the JDK; {@link #page} as the crawl does it now,
 * {@link BodyDigests#of}: both in one pass where the native SHA-1 pair is built (docs/warc.md), the
 * response's HTTP head made on the way.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class DigestBenchmark {

  private byte[] body;
  private byte[] block;
  private FetchResult.Response response;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
    byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + body.length
        + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    block = new byte[head.length + body.length];
    System.arraycopy(head, 0, block, 0, head.length);
    System.arraycopy(body, 0, block, head.length, body.length);
    response = new FetchResult.Response(SyntheticSite.PAGE_URL, Instant.parse("2026-11-21T09:00:00Z"), 120,
        new byte[0], Optional.empty(), "HTTP/1.1", 200, "OK", List.of(), body, body, Optional.empty());
  }

  @Benchmark
  public int pageBefore() {
    return Digests.sha1Base32(block).length() + Digests.sha1Base32(body).length()
        + Digests.sha1Base32(body).length();
  }

  @Benchmark
  public int pageTwoPasses() {
    return Digests.sha1Base32(block).length() + Digests.sha1Base32(body).length();
  }

  @Benchmark
  public String page() {
    return BodyDigests.of(response).content();
  }

  @Benchmark
  public String sha1Base32() {
    return Digests.sha1Base32(body);
  }
}
