package org.forager.export;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves a map of paths to files on 127.0.0.1, with HTTP range requests (RFC 9110 section 14), as
 * a WACZ host must (ReplayWeb.page reads records out of the package by range), and the content
 * types a browser insists on for scripts and service workers.
 */
final class StaticFileServer implements AutoCloseable {

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  private static final Map<String, String> TYPES = Map.of(".html", "text/html; charset=utf-8",
      ".js", "application/javascript", ".wacz", "application/wacz");

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Path> files;

  private StaticFileServer(HttpServer server, Map<String, Path> files) {
    this.server = server;
    this.files = Map.copyOf(files);
  }

  static StaticFileServer start(Map<String, Path> files) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    StaticFileServer s = new StaticFileServer(server, files);
    server.setExecutor(s.executor);
    server.createContext("/", s::serve);
    server.start();
    return s;
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private void serve(HttpExchange ex) throws IOException {
    try (ex) {
      Path file = files.get(ex.getRequestURI().getPath());
      if (file == null) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      long size = Files.size(file);
      String name = file.getFileName().toString();
      ex.getResponseHeaders().set("Content-Type",
          TYPES.getOrDefault(name.substring(Math.max(0, name.lastIndexOf('.'))), "application/octet-stream"));
      ex.getResponseHeaders().set("Accept-Ranges", "bytes");
      long from = 0;
      long to = size - 1;
      int status = 200;
      String range = ex.getRequestHeaders().getFirst("Range");
      Matcher m = range == null ? null : RANGE.matcher(range.trim());
      if (m != null && m.matches() && !(m.group(1).isEmpty() && m.group(2).isEmpty())) {
        if (m.group(1).isEmpty()) {
          from = Math.max(0, size - Long.parseLong(m.group(2))); // the last N bytes
        } else {
          from = Long.parseLong(m.group(1));
          if (!m.group(2).isEmpty()) to = Math.min(to, Long.parseLong(m.group(2)));
        }
        if (from > to) {
          ex.getResponseHeaders().set("Content-Range", "bytes */" + size);
          ex.sendResponseHeaders(416, -1);
          return;
        }
        status = 206;
        ex.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + size);
      }
      long length = to - from + 1;
      if (ex.getRequestMethod().equals("HEAD")) {
        ex.getResponseHeaders().set("Content-Length", String.valueOf(length));
        ex.sendResponseHeaders(status, -1);
        return;
      }
      ex.sendResponseHeaders(status, length == 0 ? -1 : length);
      try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r"); OutputStream out = ex.getResponseBody()) {
        in.seek(from);
        byte[] buffer = new byte[1 << 16];
        for (long left = length; left > 0; ) {
          int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
          if (n < 0) break;
          out.write(buffer, 0, n);
          left -= n;
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
