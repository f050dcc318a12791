package org.forager.status;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A small HTTP/1.1 server with hard limits, for the status endpoints, so that no client, however slow
 * or numerous, takes more than a fixed share of threads and memory from the crawl (issue 19):
 *
 * <ul>
 *   <li>at most {@link Limits#maxConnections} connections at once; one accepted beyond that is closed
 *       at once, unread (the listen backlog is the kernel's, not ours);
 *   <li>one request per connection, answered with {@code Connection: close}: no idle connections;
 *   <li>a request head of at most {@link Limits#maxHeadBytes} (431 beyond);
 *   <li>a deadline for the whole exchange, reading and writing: at {@link Limits#exchangeTimeout} the
 *       connection is closed whatever it is doing.
 * </ul>
 *
 * <p>Each connection is served on its own virtual thread; the handler must be safe for concurrent use.
 * The JDK's {@code com.sun.net.httpserver} was not kept: JDK 21 honours {@code jdk.httpserver.maxConnections}
 * and {@code sun.net.httpserver.maxReqTime}, but only as system properties read once per process, so
 * they would bind every other server in the JVM too (and a cap on header bytes came in later updates).
 */
final class BoundedHttpServer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger("org.forager.status");
  private static final int BACKLOG = 128;
  /** After the answer, how long the client gets to close its side before the socket is closed. */
  private static final long LINGER_MILLIS = 1_000;
  private static final int MAX_DRAINED_BYTES = 64 * 1024;

  /**
   * @param maxConnections connections served at once
   * @param exchangeTimeout from accept to the connection's close, at most
   * @param maxHeadBytes the request line and headers, at most
   * @param maxBodyBytes a request's body ({@code Content-Length}), at most: 413 beyond it
   */
  record Limits(int maxConnections, Duration exchangeTimeout, int maxHeadBytes, int maxBodyBytes) {
    static final Limits DEFAULT = new Limits(16, Duration.ofSeconds(10), 8 * 1024);

    /** With a body of at most 16 KiB: the control API's orders are small JSON objects. */
    Limits(int maxConnections, Duration exchangeTimeout, int maxHeadBytes) {
      this(maxConnections, exchangeTimeout, maxHeadBytes, 16 * 1024);
    }

    Limits {
      if (maxConnections < 1 || maxHeadBytes < 64 || maxBodyBytes < 0) throw new IllegalArgumentException("limits too small");
      if (exchangeTimeout.toMillis() < 1 || exchangeTimeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("exchange timeout out of range: " + exchangeTimeout);
      }
    }
  }

  /** Answers one request. Runs on a connection's thread; must be safe for concurrent use. */
  @FunctionalInterface
  interface Handler {
    /** @param body the request's body, read whole ({@code Content-Length}); empty when it has none */
    Reply handle(RequestHead request, byte[] body);
  }

  /** An answer: status, body, and headers besides Content-Length and Connection. */
  record Reply(int status, Map<String, String> headers, byte[] body) {
    static Reply text(int status, String text) {
      return new Reply(status, Map.of("Content-Type", "text/plain; charset=utf-8"),
          (text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private final ServerSocket listener;
  private final Limits limits;
  private final Handler handler;
  private final Semaphore slots;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final ScheduledThreadPoolExecutor deadlines;
  private final Thread acceptor;
  private volatile boolean closed;
  private volatile long lastAcceptFailureLogged;

  private BoundedHttpServer(ServerSocket listener, Limits limits, Handler handler) {
    this.listener = listener;
    this.limits = limits;
    this.handler = handler;
    this.slots = new Semaphore(limits.maxConnections());
    this.deadlines = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "forager-status-deadlines"));
    deadlines.setRemoveOnCancelPolicy(true); // a connection that ends early leaves no task behind
    this.acceptor = daemon(this::acceptLoop, "forager-status-accept");
  }

  /**
   * A socket listening on {@code address}, for {@link #start}; separate so that the port actually
   * bound is known before the handler is made.
   *
   * @throws IOException when the address cannot be listened on (e.g. the port is taken)
   */
  static ServerSocket listen(InetSocketAddress address) throws IOException {
    ServerSocket listener = new ServerSocket();
    try {
      listener.bind(address, BACKLOG);
    } catch (IOException e) {
      listener.close();
      throw e;
    }
    return listener;
  }

  /** Serves on {@code listener} until closed; closing the server closes the listener. */
  static BoundedHttpServer start(ServerSocket listener, Limits limits, Handler handler) {
    BoundedHttpServer server = new BoundedHttpServer(listener, limits, handler);
    server.acceptor.start();
    return server;
  }

  InetSocketAddress address() {
    return (InetSocketAddress) listener.getLocalSocketAddress();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private void acceptLoop() {
    while (!closed) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (IOException e) {
        if (closed) return;
        acceptFailed(e);
        continue;
      }
      if (!slots.tryAcquire()) {
        closeQuietly(socket); // over the cap: shed at once, holding nothing
        continue;
      }
      try {
        connections.add(socket);
        Thread.ofVirtual().name("forager-status-connection").start(() -> serve(socket));
      } catch (RuntimeException e) {
        release(socket);
        LOG.log(System.Logger.Level.WARNING, "status server: cannot serve a connection", e);
      }
    }
  }

  /** E.g. out of file descriptors: logged at most once a minute, and a short pause instead of a hot loop. */
  private void acceptFailed(IOException e) {
    long now = System.nanoTime();
    if (now - lastAcceptFailureLogged > TimeUnit.MINUTES.toNanos(1)) {
      lastAcceptFailureLogged = now;
      LOG.log(System.Logger.Level.WARNING, "status server: cannot accept a connection: " + e.getMessage());
    }
    try {
      Thread.sleep(100);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void serve(Socket socket) {
    try {
      ScheduledFuture<?> cut = deadlines.schedule(() -> closeQuietly(socket), limits.exchangeTimeout().toMillis(),
          TimeUnit.MILLISECONDS);
      try {
        exchange(socket, System.nanoTime() + limits.exchangeTimeout().toNanos());
      } finally {
        cut.cancel(false);
      }
    } catch (IOException | RejectedExecutionException e) {
      // The client went away, the deadline closed the socket, or the server is closing: nothing to answer.
    } finally {
      release(socket);
    }
  }

  private void exchange(Socket socket, long deadline) throws IOException {
    socket.setSoTimeout((int) limits.exchangeTimeout().toMillis());
    Reply reply;
    boolean head = false;
    try {
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1024);
      RequestHead request = RequestHead.read(in, limits.maxHeadBytes());
      head = request.method().equals("HEAD");
      reply = handler.handle(request, readBody(in, request));
    } catch (RequestHead.Refused e) {
      reply = Reply.text(e.status(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "status server: unexpected error answering a request", e);
      reply = Reply.text(500, "internal error");
    }
    write(socket.getOutputStream(), reply, head);
    linger(socket, deadline);
  }

  /**
   * The request's body: exactly {@code Content-Length} bytes, at most {@link Limits#maxBodyBytes};
   * chunked bodies are refused (411), whose length is known only at their end.
   */
  private byte[] readBody(InputStream in, RequestHead request) throws IOException, RequestHead.Refused {
    if (request.header("transfer-encoding").isPresent()) {
      throw new RequestHead.Refused(411, "a body needs a Content-Length (chunked bodies are not read)");
    }
    Optional<String> length = request.header("content-length");
    if (length.isEmpty()) return new byte[0];
    String digits = length.get();
    if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new RequestHead.Refused(400, "malformed Content-Length");
    }
    int n = Integer.parseInt(digits);
    if (n > limits.maxBodyBytes()) {
      throw new RequestHead.Refused(413, "a body of at most " + limits.maxBodyBytes() + " bytes");
    }
    byte[] body = in.readNBytes(n);
    if (body.length < n) throw new java.io.EOFException("closed before the end of the body");
    return body;
  }

  private static void write(OutputStream out, Reply reply, boolean head) throws IOException {
    StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(reply.status()).append(' ')
        .append(reasonPhrase(reply.status())).append("\r\n");
    reply.headers().forEach((name, value) -> sb.append(name).append(": ").append(value).append("\r\n"));
    sb.append("Content-Length: ").append(reply.body().length).append("\r\n");
    sb.append("Connection: close\r\n\r\n");
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!head) out.write(reply.body());
    out.flush();
  }

  /**
   * Half-closes and reads what the client still sends (a body left unread) until it closes, briefly:
   * closing with unread bytes would reset the connection and could destroy the answer in flight.
   */
  private static void linger(Socket socket, long deadline) throws IOException {
    socket.shutdownOutput();
    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    if (left <= 0) return;
    socket.setSoTimeout((int) Math.min(left, LINGER_MILLIS));
    InputStream in = socket.getInputStream();
    byte[] sink = new byte[4096];
    int drained = 0;
    int n;
    while (drained < MAX_DRAINED_BYTES && (n = in.read(sink)) >= 0) drained += n;
  }

  private static String reasonPhrase(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 411 -> "Length Required";
      case 413 -> "Content Too Large";
      case 415 -> "Unsupported Media Type";
      case 421 -> "Misdirected Request";
      case 431 -> "Request Header Fields Too Large";
      case 505 -> "HTTP Version Not Supported";
      default -> status >= 500 ? "Server Error" : "";
    };
  }

  private void release(Socket socket) {
    closeQuietly(socket);
    if (connections.remove(socket)) slots.release();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException | RuntimeException e) {
      // closing: nothing more to do
    }
  }

  /** Stops listening and closes every connection; answers in progress end. */
  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // closing
    }
    try {
      acceptor.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Socket socket : connections) closeQuietly(socket);
    deadlines.shutdownNow();
  }
}
