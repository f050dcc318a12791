package org.forager.status;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * An origin on 127.0.0.1 that answers robots.txt with an empty 200 and every other request with
 * {@code garbage} instead of a status line: the fetcher's error message then quotes what the server
 * chose to send, as a real hostile server can make it do.
 */
final class GarbageOrigin implements AutoCloseable {

  private final ServerSocket server;

  GarbageOrigin(String garbage) throws IOException {
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    byte[] answer = (garbage + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    byte[] robots = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);
    Thread.ofVirtual().name("garbage-origin-accept").start(() -> {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          Thread.ofVirtual().start(() -> {
            try (socket) {
              String requestLine = readHead(socket.getInputStream());
              socket.getOutputStream().write(requestLine.startsWith("GET /robots.txt ") ? robots : answer);
              socket.shutdownOutput();
            } catch (IOException e) {
              // the client went away
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

  /** Reads a request head to its blank line; returns its first line. */
  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("closed before the end of the head");
      head.append((char) b);
    }
    return head.substring(0, head.indexOf("\r\n"));
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
