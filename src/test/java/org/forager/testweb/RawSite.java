package org.forager.testweb;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Map;

/**
 * A keep-alive HTTP/1.1 server on 127.0.0.1 that answers each request path with the bytes the test
 * gave for it, exactly, head and body: for responses {@link TestSite}'s JDK server cannot send (it
 * frames bodies itself, so no transfer coding of the test's choosing). A path it has no answer for
 * closes the connection. One virtual thread per connection.
 */
public final class RawSite implements AutoCloseable {

  private final ServerSocket server;

  private RawSite(ServerSocket server) {
    this.server = server;
  }

  /** Serves {@code responses}: path (and query, as requested) to the whole response. */
  public static RawSite start(Map<String, byte[]> responses) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Map<String, byte[]> answers = Map.copyOf(responses);
    Thread.ofVirtual().name("raw-site-accept").start(() -> {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          Thread.ofVirtual().name("raw-site-conn").start(() -> answer(socket, answers));
        } catch (IOException e) {
          return; // closed
        }
      }
    });
    return new RawSite(server);
  }

  /** {@code http://127.0.0.1:PORT} */
  public String origin() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /**
   * A 200 {@code text/html} response with these header lines ({@code \r\n} between them) and {@code
   * body} sent in chunks of 4 KiB: the fields must say chunked last.
   */
  public static byte[] chunked(String fields, byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + body.length / 512 + 128);
    out.writeBytes(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + fields + "\r\n\r\n").getBytes(US_ASCII));
    for (int at = 0; at < body.length; at += 4096) {
      byte[] chunk = Arrays.copyOfRange(body, at, Math.min(body.length, at + 4096));
      out.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(US_ASCII));
      out.writeBytes(chunk);
      out.writeBytes("\r\n".getBytes(US_ASCII));
    }
    out.writeBytes("0\r\n\r\n".getBytes(US_ASCII));
    return out.toByteArray();
  }

  /** A 200 {@code text/html} response of {@code html} with its Content-Length. */
  public static byte[] html(String html) {
    return ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + html.length() + "\r\n\r\n" + html)
        .getBytes(US_ASCII);
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void answer(Socket socket, Map<String, byte[]> answers) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      for (String path = path(in); path != null && answers.containsKey(path); path = path(in)) {
        out.write(answers.get(path));
        out.flush();
      }
    } catch (IOException e) {
      // The client hung up (a body cut at a cap, a failed one): nothing to answer.
    }
  }

  /** The target of the next request on the connection; null when the client closed it. */
  private static String path(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (head.length() < 4 || head.lastIndexOf("\r\n\r\n") != head.length() - 4) {
      int c = in.read();
      if (c < 0) return null;
      head.append((char) c);
    }
    String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
    return requestLine.length == 3 ? requestLine[1] : null;
  }
}
