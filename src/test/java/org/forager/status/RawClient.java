package org.forager.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Speaks to a server over a bare socket, for what an HTTP client library will not send: any
 * {@code Host} header, no {@code Host} at all, half a request line.
 */
final class RawClient {

  private RawClient() {}

  /** Sends {@code head} (CRLF line ends added), reads the answer to the end, returns it (ISO-8859-1). */
  static String exchange(URI server, String head) throws IOException {
    try (Socket socket = connect(server)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** The status code of a {@link #exchange} answer. */
  static int status(String answer) {
    if (!answer.startsWith("HTTP/1.1 ")) throw new AssertionError("not an HTTP/1.1 answer: " + answer);
    return Integer.parseInt(answer.substring(9, 12));
  }

  static Socket connect(URI server) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(server.getHost(), server.getPort()), 5_000);
    return socket;
  }

  /**
   * Whether the server has closed (or reset) this connection: waits up to {@code waitMillis} for
   * an end of stream. Any bytes of an answer are read and dropped.
   */
  static boolean closedByServer(Socket socket, int waitMillis) throws IOException {
    socket.setSoTimeout(waitMillis);
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[1024];
    try {
      while (true) {
        if (in.read(buffer) < 0) return true;
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset
    }
  }
}
