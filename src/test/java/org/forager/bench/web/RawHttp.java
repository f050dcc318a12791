package org.forager.bench.web;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A minimal blocking HTTP/1.1 client on one socket, for tests: what is sent is exactly what is written. */
final class RawHttp implements AutoCloseable {

  /** A response read off the socket; header names lower case. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String authority;

  RawHttp(int host, int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress(Hosts.inetAddress(host), port), 5000);
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
    authority = Hosts.address(host) + ":" + port;
  }

  static String get(String path, String authority) {
    return "GET " + path + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
  }

  String get(String path) {
    return get(path, authority);
  }

  RawHttp send(String request) throws IOException {
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return this;
  }

  /** Sends a GET and reads its response. */
  Response fetch(String path) throws IOException {
    return send(get(path)).read(false);
  }

  /** Reads one response; a response to HEAD has no body whatever its Content-Length. */
  Response read(boolean head) throws IOException {
    String statusLine = line();
    if (statusLine == null) throw new IOException("connection closed before a response");
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); line != null && !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
    }
    int length = head ? 0 : Integer.parseInt(headers.get("content-length"));
    byte[] body = in.readNBytes(length);
    if (body.length < length) throw new IOException("short body");
    return new Response(status, headers, body);
  }

  /** True when the server has closed the connection (the next read sees its end). */
  boolean closedByServer() throws IOException {
    return in.read() < 0;
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') return b.toString(StandardCharsets.US_ASCII).stripTrailing();
      b.write(c);
    }
    return b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
