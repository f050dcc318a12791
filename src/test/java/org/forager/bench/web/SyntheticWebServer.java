package org.forager.bench.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The synthetic web's HTTP/1.1 server: one listening socket per host on its own loopback address
 * ({@link Hosts}), never the wildcard address, all served by a single event-loop thread over a
 * {@link Selector}. Persistent connections (keep-alive) and pipelining are supported; responses
 * have a Content-Length and identity encoding.
 *
 * <p>Latency: a response is written no earlier than {@link WebConfig#latency()} after its request
 * arrived. Waiting requests sit in a FIFO timer queue that the loop drains as their times come, so
 * thousands of delayed requests cost no threads. (With one fixed latency, deadlines come in the
 * order requests arrive, so a FIFO is a priority queue.)
 *
 * <p>Every request goes to the {@link RequestLog}: host, connection id, arrival (when the read that
 * completed its head returned), and when its response write started and ended.
 *
 * <p>Thread-safe: {@link #log()}, {@link #audit()} and {@link #close()} may be called from any thread.
 */
public final class SyntheticWebServer implements AutoCloseable {

  private final WebConfig config;
  private final Responses responses;
  private final RequestLog log = new RequestLog();
  private final Selector selector;
  private final List<ServerSocketChannel> listeners = new ArrayList<>();
  private final Set<Connection> connections = new HashSet<>();
  private final ArrayDeque<Connection.Request> timers = new ArrayDeque<>();
  private final ArrayDeque<byte[]> bufferPool = new ArrayDeque<>();
  private final long latencyNanos;
  private final long startNanos = System.nanoTime();
  private final Thread loop;
  private volatile boolean running = true;
  private int nextConnectionId;

  private SyntheticWebServer(WebConfig config) throws IOException {
    this.config = config;
    this.responses = new Responses(new PageRenderer(config));
    this.latencyNanos = config.latency().toNanos();
    this.selector = Selector.open();
    this.loop = new Thread(this::run, "synthetic-web-loop");
    loop.setDaemon(true);
  }

  /**
   * Binds every host's address on the configured port and starts serving.
   *
   * @throws IOException when an address cannot be bound (e.g. the port is taken); nothing is left
   *     bound then
   */
  public static SyntheticWebServer start(WebConfig config) throws IOException {
    SyntheticWebServer server = new SyntheticWebServer(config);
    try {
      for (int h = 0; h < config.hosts(); h++) {
        ServerSocketChannel channel = ServerSocketChannel.open();
        server.listeners.add(channel);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        InetSocketAddress address = new InetSocketAddress(Hosts.inetAddress(h), config.port());
        try {
          channel.bind(address, 4096);
        } catch (IOException e) {
          throw new IOException("cannot bind " + Hosts.address(h) + ":" + config.port() + ": " + e.getMessage(), e);
        }
        channel.configureBlocking(false);
        channel.register(server.selector, SelectionKey.OP_ACCEPT, h);
      }
    } catch (IOException | RuntimeException e) {
      server.closeChannels();
      throw e;
    }
    server.loop.start();
    return server;
  }

  public WebConfig config() {
    return config;
  }

  /** {@link System#nanoTime()} when the server started: the origin of times in reports. */
  public long startNanos() {
    return startNanos;
  }

  /** The live log; take a {@link RequestLog#snapshot} to read it while the server runs. */
  public RequestLog log() {
    return log;
  }

  /** The audit of every request so far (pending ones count as aborted now). */
  public Audit audit() {
    return Audit.of(log.snapshot(System.nanoTime()), config);
  }

  /** True while the event loop runs. */
  public boolean isRunning() {
    return loop.isAlive();
  }

  /** Waits until the event loop has stopped (after {@link #close()}, or if it failed). */
  public void awaitStop() throws InterruptedException {
    loop.join();
  }

  /** Stops accepting and serving, closes every socket; pending requests are logged as aborted. Idempotent. */
  @Override
  public void close() {
    running = false;
    selector.wakeup();
    if (Thread.currentThread() != loop) {
      try {
        loop.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run() {
    try {
      while (running) {
        long timeout = 0;
        if (!timers.isEmpty()) {
          long wait = timers.peek().due - System.nanoTime();
          // select's timeout is in ms; round up so a response never starts early.
          timeout = wait <= 0 ? -1 : Math.max(1, (wait + 999_999) / 1_000_000);
        }
        if (timeout < 0) selector.selectNow(this::handle);
        else selector.select(this::handle, timeout);
        fireTimers();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("synthetic web event loop failed", e);
    } finally {
      long now = System.nanoTime();
      for (Connection c : new ArrayList<>(connections)) drop(c, now);
      closeChannels();
    }
  }

  private void handle(SelectionKey key) {
    try {
      if (key.attachment() instanceof Integer host) {
        accept((ServerSocketChannel) key.channel(), host);
        return;
      }
      Connection c = (Connection) key.attachment();
      if (key.isValid() && key.isWritable()) continueWrite(c);
      if (!c.closed && key.isValid() && key.isReadable()) read(c);
    } catch (IOException e) {
      // A failed accept (e.g. out of file descriptors) is retried at the next select.
      if (key.attachment() instanceof Connection c) drop(c, System.nanoTime());
    }
  }

  private void accept(ServerSocketChannel listener, int host) throws IOException {
    SocketChannel channel;
    while ((channel = listener.accept()) != null) {
      channel.configureBlocking(false);
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      Connection c = new Connection(nextConnectionId++, host, channel);
      c.key = channel.register(selector, SelectionKey.OP_READ, c);
      connections.add(c);
    }
  }

  private void read(Connection c) throws IOException {
    int n = c.channel.read(c.in);
    long now = System.nanoTime();
    if (n < 0) {
      drop(c, now);
      return;
    }
    byte[] a = c.in.array();
    int from = 0;
    int to = c.in.position();
    int end;
    while (!c.closing && (end = RequestParser.headEnd(a, from, to)) > 0) {
      RequestParser.Head head = RequestParser.parse(a, from, end, config.pages());
      accepted(c, head, now);
      from = end;
    }
    c.in.flip().position(from);
    c.in.compact();
    if (!c.closing && !c.in.hasRemaining()) {
      // A head larger than the buffer: answer 431 and close.
      accepted(c, new RequestParser.Head(0, Target.OTHER, 431, false, true), now);
      c.in.clear();
    }
    if (c.closing || c.queue.size() >= Connection.MAX_QUEUED) setInterest(c, SelectionKey.OP_READ, false);
    pump(c);
  }

  private void accepted(Connection c, RequestParser.Head head, long now) {
    int seq = log.open(c.host, c.id, head.target(), now);
    Connection.Request r = new Connection.Request(c, seq, head.target(), head.status(), head.head(),
        head.close(), now + latencyNanos);
    c.queue.add(r);
    if (head.close()) c.closing = true;
    if (latencyNanos == 0) r.ready = true;
    else timers.add(r);
  }

  private void fireTimers() {
    long now = System.nanoTime();
    while (!timers.isEmpty() && timers.peek().due <= now) {
      Connection.Request r = timers.poll();
      r.ready = true;
      if (!r.connection.closed) pump(r.connection);
    }
  }

  /** Starts the next response on {@code c} if none is being written and the next request is due. */
  private void pump(Connection c) {
    try {
      while (!c.closed && c.out == null && !c.queue.isEmpty() && c.queue.peek().ready) {
        Connection.Request r = c.queue.peek();
        c.outArray = bufferPool.isEmpty() ? new byte[Responses.BUFFER_SIZE] : bufferPool.pop();
        c.out = responses.write(c.host, r.target, r.status, r.head, r.close, c.outArray);
        c.writeStart = System.nanoTime();
        c.channel.write(c.out);
        if (c.out.hasRemaining()) {
          setInterest(c, SelectionKey.OP_WRITE, true);
          return;
        }
        finishWrite(c);
      }
    } catch (IOException e) {
      drop(c, System.nanoTime());
    }
  }

  private void continueWrite(Connection c) throws IOException {
    if (c.out == null) {
      setInterest(c, SelectionKey.OP_WRITE, false);
      return;
    }
    c.channel.write(c.out);
    if (c.out.hasRemaining()) return;
    setInterest(c, SelectionKey.OP_WRITE, false);
    finishWrite(c);
    pump(c);
  }

  private void finishWrite(Connection c) throws IOException {
    long end = System.nanoTime();
    Connection.Request r = c.queue.poll();
    log.complete(r.seq, r.status, c.writeStart, end);
    bufferPool.push(c.outArray);
    c.out = null;
    c.outArray = null;
    if (r.close) {
      drop(c, end);
    } else if (!c.closing && c.queue.size() < Connection.MAX_QUEUED
        && (c.key.interestOps() & SelectionKey.OP_READ) == 0) {
      // Every complete head in the buffer was parsed when read: more requests come from the socket.
      setInterest(c, SelectionKey.OP_READ, true);
    }
  }

  /** Closes a connection; its unanswered requests are logged as aborted at {@code now}. */
  private void drop(Connection c, long now) {
    if (c.closed) return;
    c.closed = true;
    for (Connection.Request r : c.queue) {
      log.complete(r.seq, RequestLog.ABORTED, c.out != null && r == c.queue.peek() ? c.writeStart : now, now);
    }
    c.queue.clear();
    if (c.outArray != null) bufferPool.push(c.outArray);
    c.out = null;
    c.outArray = null;
    connections.remove(c);
    c.key.cancel();
    try {
      c.channel.close();
    } catch (IOException e) {
      // Closing a socket that failed: nothing left to do.
    }
  }

  private static void setInterest(Connection c, int op, boolean on) {
    int ops = c.key.interestOps();
    c.key.interestOps(on ? ops | op : ops & ~op);
  }

  private void closeChannels() {
    for (ServerSocketChannel channel : listeners) {
      try {
        channel.close();
      } catch (IOException e) {
        // Best effort on shutdown.
      }
    }
    try {
      selector.close();
    } catch (IOException e) {
      // Best effort on shutdown.
    }
  }
}
