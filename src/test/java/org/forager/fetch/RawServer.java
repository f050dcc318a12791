package org.forager.fetch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile HTTP server on 127.0.0.1 for tests: a raw socket per connection, handled by a test's
 * {@link Handler} on its own virtual thread, so it can misbehave in ways a real server will not
 * (drip, stall, reset, lie about lengths, speak something else).
 */
final class RawServer implements AutoCloseable {

  interface Handler {
    void handle(Socket socket) throws Exception;
  }

  private final ServerSocket server;
  private final AtomicInteger connections = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Throwable> handlerErrors = new CopyOnWriteArrayList<>();

  RawServer(Handler handler) throws IOException {
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread.ofVirtual().name("raw-server-accept").start(() -> {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          connections.incrementAndGet();
          sockets.add(socket);
          Thread.ofVirtual().name("raw-server-conn").start(() -> {
            try (socket) {
              handler.handle(socket);
            } catch (Exception e) {
              handlerErrors.add(e);
            }
          });
        } catch (IOException e) {
          return; // closed
        }
      }
    });
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getLocalPort() + path;
  }

  int port() {
    return server.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  /** Reads one request head (up to and including the blank line) and returns it as bytes. */
  static byte[] readRequestHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) throw new IOException("client closed before the request head ended");
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toByteArray();
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Closes with a TCP reset instead of an orderly FIN. */
  static void reset(Socket socket) throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : sockets) socket.close();
  }
}
