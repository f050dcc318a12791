package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.forager.fetch.FetchResult.Truncation;
import org.forager.io.MemberBoundedGzipStream;
import org.forager.testweb.Compressed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher} against servers that send transfer codings besides chunked (RFC 9112 section 7):
 * {@code gzip, chunked} was kept compressed, its links lost. Each is undone as a content coding is,
 * under the same caps; one that cannot be undone is a protocol failure that names it.
 */
@Timeout(30)
class TransferCodingFetchTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final String PAGE = "<html><body><a href=\"/a\">a</a> " + "filler ".repeat(3_000) + "</body></html>";

  private RawServer server;
  private HttpFetcher fetcher;

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
    fetcher = null;
    server = null;
  }

  @Test
  void aGzipTransferCodedPageIsDecodedAndItsConnectionReused() throws IOException {
    serve(chunked("Transfer-Encoding: gzip, chunked", gzip(ascii(PAGE))));

    for (String path : new String[] {"/1", "/2"}) {
      Response response = whole(fetch(path));
      assertEquals(PAGE, text(response.body()));
      assertArrayEquals(response.body(), response.rawBody(), "the raw body is the transfer-decoded one");
    }
    assertEquals(1, server.connections(), "the last chunk was read: the connection carried the second request");
  }

  @Test
  void deflateTransferCodingsZlibWrappedOrRawAreDecoded() throws IOException {
    for (boolean raw : new boolean[] {false, true}) {
      serve(chunked("Transfer-Encoding: deflate, chunked", Compressed.deflated(ascii(PAGE), raw)));
      assertEquals(PAGE, text(whole(fetch("/")).body()), raw ? "raw deflate" : "zlib");
      stop();
    }
  }

  @Test
  void aTransferCodingOverAContentCodingLeavesTheContentCodedBodyAsTheRawOne() throws IOException {
    byte[] contentCoded = gzip(ascii(PAGE));
    serve(chunked("Content-Encoding: gzip\r\nTransfer-Encoding: gzip, chunked", gzip(contentCoded)));

    Response response = whole(fetch("/"));
    assertArrayEquals(contentCoded, response.rawBody(), "the raw body keeps its content coding");
    assertEquals(PAGE, text(response.body()));
  }

  @Test
  void anUnknownTransferCodingIsAProtocolFailureThatNamesIt() throws IOException {
    for (String coding : new String[] {"x-foo, chunked", "compress, chunked", "x-foo"}) {
      serve(chunked("Transfer-Encoding: " + coding, ascii(PAGE)));
      Failure failure = assertInstanceOf(Failure.class, fetch("/1"), coding);
      assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
      String name = coding.substring(0, coding.indexOf(',') < 0 ? coding.length() : coding.indexOf(','));
      assertTrue(failure.message().contains("unsupported transfer coding \"" + name + "\""), failure.message());
      assertInstanceOf(Failure.class, fetch("/2"), coding);
      assertEquals(2, server.connections(), "the unread body's connection is not reused");
      stop();
    }
  }

  @Test
  void aResponseWithoutABodyIgnoresItsTransferCoding() throws IOException {
    serve(ascii("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: x-foo, chunked\r\n\r\n"));

    assertEquals(304, assertInstanceOf(Response.class, fetch("/")).status());
  }

  @Test
  void aCodingAfterChunkedIsAProtocolFailure() throws IOException {
    serve(chunked("Transfer-Encoding: chunked, gzip", gzip(ascii(PAGE))));

    Failure failure = assertInstanceOf(Failure.class, fetch("/"));
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
    assertTrue(failure.message().contains("a transfer coding after chunked"), failure.message());
  }

  /** Two fields of chunked (a framework adding its own to the application's): one chunked body, as curl reads it. */
  @Test
  void chunkedTwiceIsOneChunkedBody() throws IOException {
    serve(chunked("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked", ascii(PAGE)));

    assertEquals(PAGE, text(whole(fetch("/1")).body()));
    assertEquals(PAGE, text(whole(fetch("/2")).body()));
    assertEquals(1, server.connections());
  }

  /**
   * Without chunked last the body ends with the connection (RFC 9112 section 6.3), whatever its coding
   * says: a server that holds the connection open after the coding's end holds the fetch to its
   * deadline, no longer, and the page decoded so far is kept.
   */
  @Test
  void aTransferCodingWithoutChunkedEndsWithTheConnectionOrTheDeadline() throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: gzip\r\n\r\n"));
      out.write(gzip(ascii(PAGE)));
      out.flush();
      socket.getInputStream().read(); // holds the connection open until the client closes it
    });
    fetcher = fetcher(1 << 20, 100);
    long start = System.nanoTime();

    Response response = assertInstanceOf(Response.class, fetch("/1"));

    assertTrue(System.nanoTime() - start < TIMEOUT.toNanos() + 700_000_000L, "ended at the deadline");
    assertEquals(Optional.of(Truncation.DEADLINE), response.truncation());
    assertEquals(PAGE, text(response.body()));
    assertInstanceOf(Response.class, fetch("/2"));
    assertEquals(2, server.connections(), "a body until close leaves its connection unused");
  }

  @Test
  void aTransferCodingWithoutChunkedIsReadToTheServersClose() throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"));
      out.write(gzip(ascii(PAGE)));
    });
    fetcher = fetcher(1 << 20, 100);

    assertEquals(PAGE, text(whole(fetch("/")).body()));
  }

  /** Both framings at once, a sign of request smuggling: the transfer coding frames the body, and the connection is closed after. */
  @Test
  void aTransferCodingBesidesAContentLengthFramesTheBodyAndEndsTheConnection() throws IOException {
    serve(chunked("Content-Length: 5\r\nTransfer-Encoding: gzip, chunked", gzip(ascii(PAGE))));

    assertEquals(PAGE, text(whole(fetch("/1")).body()));
    assertEquals(PAGE, text(whole(fetch("/2")).body()));
    assertEquals(2, server.connections());
  }

  /** As a content coding: a body that does not even start like its coding is kept as it came. */
  @Test
  void aMislabelledPlainBodyOrAnEmptyOneIsKeptAsItCame() throws IOException {
    serve(chunked("Transfer-Encoding: gzip, chunked", ascii(PAGE)));
    assertEquals(PAGE, text(whole(fetch("/1")).body()));
    assertEquals(1, server.connections());
    stop();
    serve(chunked("Transfer-Encoding: gzip, chunked", new byte[0]));
    assertEquals("", text(whole(fetch("/1")).body()));
  }

  @Test
  void aTransferCodingThatBreaksOffMidwayIsUndecodable() throws IOException {
    byte[] coded = gzip(ascii(PAGE + "x".repeat(50_000)));
    for (int i = coded.length / 2; i < coded.length; i++) coded[i] = (byte) 0xA5;
    serve(chunked("Transfer-Encoding: gzip, chunked", coded));

    Response response = assertInstanceOf(Response.class, fetch("/"));
    assertEquals(Optional.of(Truncation.UNDECODABLE), response.truncation());
    assertTrue(text(response.body()).startsWith("<html><body><a href=\"/a\">"), "what was decoded is kept");
  }

  /** The empty-member bound holds for a transfer coding too: no stack overflow, the page's failure alone. */
  @Test
  void aRunOfEmptyGzipMembersIsUndecodable() throws IOException {
    ByteArrayOutputStream coded = new ByteArrayOutputStream();
    coded.write(gzip(ascii(PAGE)));
    byte[] nothing = gzip(new byte[0]);
    for (int i = 0; i < 20_000; i++) coded.write(nothing);
    serve(chunked("Transfer-Encoding: gzip, chunked", coded.toByteArray()));

    Response response = assertInstanceOf(Response.class, fetch("/"));
    assertEquals(Optional.of(Truncation.UNDECODABLE), response.truncation());
    assertEquals(PAGE, text(response.body()));
    assertTrue(20_000 > MemberBoundedGzipStream.MAX_EMPTY_MEMBERS);
  }

  /** Deflate blocks that hold nothing decode to nothing: the wire's own cap must stop them. */
  @Test
  void endlessEmptyDeflateBlocksAreCutAtThePageCapOnTheWire() throws IOException {
    byte[] emptyStoredBlocks = new byte[5 * 1024]; // BFINAL 0, stored, LEN 0, NLEN 0xFFFF: 5 bytes each
    for (int i = 0; i < emptyStoredBlocks.length; i += 5) {
      emptyStoredBlocks[i + 3] = (byte) 0xFF;
      emptyStoredBlocks[i + 4] = (byte) 0xFF;
    }
    byte[] chunk = chunk(emptyStoredBlocks);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: deflate, chunked\r\n\r\n"));
      try {
        while (true) out.write(chunk);
      } catch (IOException e) {
        // the client hung up, as it should
      }
    });
    fetcher = fetcher(100_000, 100);
    long start = System.nanoTime();

    Response response = assertInstanceOf(Response.class, fetch("/"));

    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), response.truncation());
    assertEquals(0, response.body().length);
    assertTrue(System.nanoTime() - start < TIMEOUT.toNanos() / 2, "cut by the cap, not the deadline");
  }

  /**
   * A bomb sent as a transfer coding stops at the decompression ratio as the same bomb sent as a
   * content coding does: both measure the decoded bytes against the bytes on the wire.
   */
  @Test
  void aBombAsATransferCodingIsCutAtTheRatioAsOneAsAContentCoding() throws IOException {
    byte[] bomb = Compressed.gzippedZeros(64 << 20);
    long cap = 8 << 20;
    serve(chunked("Content-Encoding: gzip\r\nTransfer-Encoding: chunked", bomb), cap, 100);
    Response asContent = assertInstanceOf(Response.class, fetch("/"));
    stop();
    serve(chunked("Transfer-Encoding: gzip, chunked", bomb), cap, 100);
    Response asTransfer = assertInstanceOf(Response.class, fetch("/"));

    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), asContent.truncation());
    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), asTransfer.truncation());
    // Zeros inflate a thousandfold: the decoder's first fill of its 8 KiB buffer (after the 10-byte
    // gzip header) is all the wire either read before the ratio stopped it, one read of output later.
    long bound = 100L * (10 + 8192) + 8192;
    assertTrue(asContent.body().length <= 100L * asContent.rawBody().length + 8192);
    for (Response response : new Response[] {asContent, asTransfer}) {
      assertTrue(response.body().length > BodyReader.RATIO_FLOOR && response.body().length <= bound,
          response.body().length + " decoded, bound " + bound);
    }
    assertArrayEquals(asTransfer.body(), asTransfer.rawBody(), "stored as decoded");
  }

  @Test
  void aBombAsATransferCodingIsCutAtThePageCapWithFlatMemory() throws IOException {
    byte[] bomb = Compressed.gzippedZeros(256 << 20);
    serve(chunked("Transfer-Encoding: gzip, chunked", bomb), 1 << 20, 0); // the page cap alone must hold
    fetch("/warm-up"); // class loading is not the fetch's memory
    FetchResult[] result = new FetchResult[1];
    long allocated = allocatedBy(() -> result[0] = fetch("/"));

    Response response = assertInstanceOf(Response.class, result[0]);
    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), response.truncation());
    assertEquals(1 << 20, response.body().length);
    assertEquals(1 << 20, response.rawBody().length);
    assertTrue(allocated < 16L << 20, "allocated " + allocated + " bytes to fetch a capped bomb");
  }

  /** A server that answers every request on a connection with {@code response}; a fetcher with a 1 MiB cap. */
  private void serve(byte[] response) throws IOException {
    serve(response, 1 << 20, 100);
  }

  private void serve(byte[] response, long maxPageBytes, long ratio) throws IOException {
    server = new RawServer(socket -> {
      while (true) {
        try {
          readRequestHead(socket.getInputStream());
        } catch (IOException closed) {
          return;
        }
        OutputStream out = socket.getOutputStream();
        out.write(response);
        out.flush();
      }
    });
    fetcher = fetcher(maxPageBytes, ratio);
  }

  private static HttpFetcher fetcher(long maxPageBytes, long ratio) {
    return new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", maxPageBytes, TIMEOUT, ratio, true, 16));
  }

  private FetchResult fetch(String path) {
    return fetcher.fetch(FetchRequest.of(server.url(path)));
  }

  private static Response whole(FetchResult result) {
    Response response = assertInstanceOf(Response.class, result, () -> result instanceof Failure f ? f.message() : "");
    assertFalse(response.truncated(), () -> "truncated: " + response.truncation());
    return response;
  }

  /** A 200 response with these header lines (CRLF between them) and the body sent in chunks. */
  static byte[] chunked(String fields, byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + fields + "\r\n\r\n"));
    for (int at = 0; at < body.length; at += 4096) {
      out.write(chunk(Arrays.copyOfRange(body, at, Math.min(body.length, at + 4096))));
    }
    out.write(ascii("0\r\n\r\n"));
    return out.toByteArray();
  }

  private static byte[] chunk(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ascii(Integer.toHexString(data.length) + "\r\n"));
    out.write(data);
    out.write(ascii("\r\n"));
    return out.toByteArray();
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** Bytes allocated on the heap by this thread while running {@code action}. */
  private static long allocatedBy(Runnable action) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    action.run();
    return threads.getCurrentThreadAllocatedBytes() - before;
  }
}
