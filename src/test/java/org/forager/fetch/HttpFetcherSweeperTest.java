package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.forager.fetch.FetchResult.Truncation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher}'s reads wait without a timer, and its backup bound, the {@link FetchSweeper},
 * ends what the deadline alarm does not: each fetch here runs with a {@link DeadlineTimer} whose
 * alarms are all lost, against a {@link RawServer} that stalls.
 */
@Timeout(20)
class HttpFetcherSweeperTest {

  static final Duration TIMEOUT = Duration.ofMillis(1000);
  /** The sweeper's period at this timeout: a quarter of it. */
  static final long PERIOD_MILLIS = TimeUnit.NANOSECONDS.toMillis(FetchSweeper.periodFor(TIMEOUT.toNanos()));
  /** How late past its sweep a fetch may return: scheduling and closing, not a benchmark. */
  static final long MARGIN_MILLIS = 700;

  private RawServer server;
  private HttpFetcher fetcher;
  private final CountDownLatch release = new CountDownLatch(1);

  private static HttpFetcher.Options options(Duration timeout) {
    return new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, timeout, 100, true, 16);
  }

  /** A timer whose alarms are all lost, as if its thread had died. */
  private static DeadlineTimer lostAlarms() {
    return new DeadlineTimer(action -> new Thread(() -> { }));
  }

  @AfterEach
  void stop() throws IOException {
    release.countDown();
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  @Test
  void aReadThatWaitsParksWithoutATimer() throws Exception {
    CountDownLatch partSent = new CountDownLatch(1);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello"));
      out.flush();
      partSent.countDown();
      release.await(10, TimeUnit.SECONDS);
      out.write(ascii("world"));
    });
    fetcher = new HttpFetcher(options(Duration.ofSeconds(15)));
    CompletableFuture<FetchResult> result = new CompletableFuture<>();
    Thread fetching = Thread.ofVirtual().start(
        () -> result.complete(fetcher.fetch(FetchRequest.of(server.url("/")))));

    assertTrue(partSent.await(5, TimeUnit.SECONDS), "the server never sent the first part");
    StackTraceElement[] waiting = stackOnceParkedInASocketRead(fetching);
    release.countDown();

    assertFalse(Arrays.stream(waiting).anyMatch(
        f -> f.getClassName().equals("java.lang.VirtualThread") && f.getMethodName().equals("parkNanos")),
        () -> "a timed park in the read:\n" + String.join("\n", Arrays.stream(waiting).map(String::valueOf).toList()));
    Response response = assertInstanceOf(Response.class, result.get(5, TimeUnit.SECONDS));
    assertEquals("helloworld", new String(response.body(), StandardCharsets.US_ASCII));
  }

  @Test
  void aFetchWhoseAlarmNeverFiresIsEndedByTheSweeperWithinAboutTwiceTheTimeout() throws IOException {
    server = new RawServer(socket -> {
      String path = new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1);
      OutputStream out = socket.getOutputStream();
      if (path.startsWith("GET /half-head")) out.write(ascii("HTTP/1.1 200 OK\r\nX-Then: nothing"));
      if (path.startsWith("GET /half-body")) out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf"));
      out.flush();
      release.await(15, TimeUnit.SECONDS); // then stalls: no byte more
    });
    fetcher = new HttpFetcher(options(TIMEOUT), lostAlarms());

    for (String path : new String[] {"/silent", "/half-head"}) {
      long start = System.nanoTime();
      FetchResult result = fetcher.fetch(FetchRequest.of(server.url(path)));
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      Failure failure = assertInstanceOf(Failure.class, result, path);
      assertEquals(FailureKind.TIMEOUT, failure.kind(), path + ": " + failure.message());
      assertEndedBySweep(path, elapsedMillis);
    }
    long start = System.nanoTime();
    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/half-body")));
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(Optional.of(Truncation.DEADLINE), response.truncation());
    assertEquals("half", new String(response.body(), StandardCharsets.US_ASCII));
    assertEndedBySweep("/half-body", elapsedMillis);
    assertEquals(0, fetcher.fetchesInFlight());
  }

  @Test
  void aStalledTlsHandshakeIsEndedAtTheDeadlineAndWithoutAlarmByTheSweeper() throws IOException {
    server = new RawServer(socket -> {
      socket.getInputStream().read(new byte[512]); // a ClientHello, never answered
      release.await(15, TimeUnit.SECONDS);
    });
    String url = "https://127.0.0.1:" + server.port() + "/";
    fetcher = new HttpFetcher(options(TIMEOUT));
    long start = System.nanoTime();
    FetchResult alarmed = fetcher.fetch(FetchRequest.of(url));
    long alarmedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    fetcher.close();
    fetcher = new HttpFetcher(options(TIMEOUT), lostAlarms());
    start = System.nanoTime();
    FetchResult swept = fetcher.fetch(FetchRequest.of(url));
    long sweptMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(FailureKind.TIMEOUT, assertInstanceOf(Failure.class, alarmed).kind());
    assertTrue(alarmedMillis >= TIMEOUT.toMillis() - 50 && alarmedMillis < TIMEOUT.toMillis() + MARGIN_MILLIS,
        "with its alarm: took " + alarmedMillis + " ms");
    assertEquals(FailureKind.TIMEOUT, assertInstanceOf(Failure.class, swept).kind());
    assertEndedBySweep("without alarm", sweptMillis);
  }

  @Test
  void aSweeperWhoseAbortsThrowOrBlockStillEndsTheNextFetch() throws Exception {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      release.await(15, TimeUnit.SECONDS); // never answers
    });
    FetchSweeper sweeper = new FetchSweeper(FetchSweeper.periodFor(TIMEOUT.toNanos()));
    fetcher = new HttpFetcher(options(TIMEOUT), lostAlarms(), sweeper);
    CountDownLatch thrown = new CountDownLatch(1);
    CountDownLatch blocking = new CountDownLatch(1);
    sweeper.register(System.nanoTime(), () -> {
      thrown.countDown();
      throw new OutOfMemoryError("thrown by a test");
    });
    sweeper.register(System.nanoTime(), () -> {
      blocking.countDown();
      try {
        release.await(15, TimeUnit.SECONDS); // an abort that hangs until the test ends
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertTrue(thrown.await(5, TimeUnit.SECONDS) && blocking.await(5, TimeUnit.SECONDS),
        "the sweeper never ran the first aborts");

    long start = System.nanoTime();
    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")));
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(FailureKind.TIMEOUT, assertInstanceOf(Failure.class, result).kind());
    assertEndedBySweep("after a throwing and a blocking abort", elapsedMillis);
  }

  @Test
  void finishedFetchesAreNotKept() throws IOException {
    server = new RawServer(socket -> {
      try {
        while (true) {
          String path = new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1);
          if (path.startsWith("GET /reset")) {
            RawServer.reset(socket);
            return;
          }
          socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        }
      } catch (IOException e) {
        // The client closed its kept-alive connection.
      }
    });
    fetcher = new HttpFetcher(options(TIMEOUT));
    int failures = 0;

    for (int i = 0; i < 300; i++) {
      FetchResult result = fetcher.fetch(FetchRequest.of(server.url(i % 10 == 0 ? "/reset" : "/page" + i)));
      if (result instanceof Failure) failures++;
    }
    fetcher.fetch(FetchRequest.of("ftp://127.0.0.1/not-http")); // refused before it is registered

    assertEquals(30, failures);
    assertEquals(0, fetcher.fetchesInFlight());
  }

  /** A fetch whose alarm was lost ends at its sweep (twice the timeout), a period late at most. */
  private static void assertEndedBySweep(String what, long elapsedMillis) {
    long sweepMillis = 2 * TIMEOUT.toMillis();
    assertTrue(elapsedMillis >= sweepMillis - 50 && elapsedMillis < sweepMillis + PERIOD_MILLIS + MARGIN_MILLIS,
        what + ": took " + elapsedMillis + " ms");
  }

  /**
   * The stack of {@code thread} once it is parked in a socket read. There is no event to wait on for
   * "parked", so the stack is looked at every millisecond, for at most 5 s.
   */
  private static StackTraceElement[] stackOnceParkedInASocketRead(Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() - deadline < 0) {
      StackTraceElement[] stack = thread.getStackTrace();
      boolean inRead = Arrays.stream(stack).anyMatch(
          f -> f.getClassName().equals("sun.nio.ch.NioSocketImpl") && f.getMethodName().equals("park"));
      boolean parked = Arrays.stream(stack).anyMatch(f -> f.getClassName().equals("java.lang.VirtualThread")
          && f.getMethodName().startsWith("park"));
      if (inRead && parked) return stack;
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    return fail("the fetch never waited in a socket read");
  }
}
