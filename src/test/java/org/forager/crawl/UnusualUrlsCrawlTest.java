package org.forager.crawl;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.forager.testweb.TestCrawl;
import org.forager.url.UrlNormalizer;
import org.forager.warc.WarcIndexes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;

/**
 * URLs the URL Standard keeps as they are and browsers request as they are, which RFC 2396's grammar
 * (java.net.URI) refuses: {@code |}, {@code ^}, <code>{}</code> and <code>`</code> in a path or query, a
 * {@code %} that starts no escape, a host with {@code _}. Each is requested with its path and query
 * exactly as the page's link resolved, logged as fetched, and archived and indexed.
 *
 * <p>The server reads request lines from raw sockets: the JDK's own HTTP server parses them with
 * java.net.URI too.
 */
@Timeout(60)
class UnusualUrlsCrawlTest {

  private static final List<String> TARGETS = List.of("/a|b", "/c^d", "/s?q={x}|y`", "/p%zz", "/q?%");

  @TempDir Path tmp;

  @Test
  void linksWithCharactersUriRefusesAreFetchedArchivedAndIndexed() throws Exception {
    try (LineServer server = new LineServer()) {
      String underscored = "http://my_site.test:" + server.port();
      StringBuilder page = new StringBuilder("<html><body>");
      for (String target : TARGETS) page.append("<a href=\"").append(target).append("\">x</a>");
      page.append("<a href=\"").append(underscored).append("/u\">elsewhere</a></body></html>");
      server.page = page.toString();
      String origin = "http://127.0.0.1:" + server.port();
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"),
          TestCrawl.pinnedToLoopback("my_site.test") + "scope: { mode: open }\n"
              + "url_query_parameters: [ { prefix: \"" + origin + "/\", allow: [ \"q\", \"%\" ] } ]\n"));

      // As the links resolve: the URL parser encodes a path's ^ (a browser does too), and keeps the rest.
      List<String> targets = TARGETS.stream()
          .map(t -> UrlNormalizer.normalize(origin + t).orElseThrow().substring(origin.length())).toList();
      assertEquals(List.of("/a|b", "/c%5Ed", "/s?q={x}|y`", "/p%zz", "/q?%"), targets);
      Set<String> requested = Set.copyOf(server.requestLines);
      for (String target : targets) {
        assertTrue(requested.contains("GET " + target + " HTTP/1.1"), target + " not in " + requested);
        assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + target), target);
      }
      assertTrue(server.hosts.contains("my_site.test:" + server.port()), server.hosts.toString());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, underscored + "/u"));

      TestCrawl.assertWarcFilesFinishedAndReadable(data);
      Set<String> archived;
      try (var warcs = Files.list(data.resolve("warc"))) {
        archived = warcs.flatMap(UnusualUrlsCrawlTest::responseUris).collect(Collectors.toSet());
      }
      for (String target : targets) assertTrue(archived.contains(origin + target), target + " not in " + archived);
      assertTrue(archived.contains(underscored + "/u"), archived.toString());
      String index;
      try (var files = Files.list(data.resolve(WarcIndexes.DIRECTORY))) {
        index = files.map(UnusualUrlsCrawlTest::read).collect(Collectors.joining());
      }
      for (String target : targets) assertTrue(index.contains("\"url\":\"" + origin + target + "\""), target);
      TestCrawl.assertIndexesAsReadBack(data);
    }
  }

  @Test
  void robotsTxtRulesMatchSuchPathsAsWritten() throws Exception {
    try (LineServer server = new LineServer()) {
      String origin = "http://127.0.0.1:" + server.port();
      server.robots = "User-agent: *\nDisallow: /a|b\nDisallow: /s?q={\n";
      server.page = "<html><body><a href=\"/a|b\">x</a><a href=\"/s?q={x}\">x</a><a href=\"/ok|1\">x</a></body></html>";
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"),
          allowingQuery(origin)));

      assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + "/ok|1"));
      for (String target : List.of("/a|b", "/s?q={x}")) {
        assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, origin + target), target);
        assertTrue(server.requestLines.stream().noneMatch(line -> line.contains(target)), server.requestLines.toString());
      }
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aRedirectToANonAsciiUrlWrittenInUtf8IsFollowedAsABrowserFollowsIt() throws Exception {
    try (LineServer server = new LineServer()) {
      String origin = "http://127.0.0.1:" + server.port();
      server.page = "<html><body><a href=\"/moved\">x</a></body></html>";
      server.redirects.put("/moved", "/café/東京?q=é");
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"),
          allowingQuery(origin)));

      String target = "/caf%C3%A9/%E6%9D%B1%E4%BA%AC?q=%C3%A9";
      assertTrue(server.requestLines.contains("GET " + target + " HTTP/1.1"), server.requestLines.toString());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + target));
    }
  }

  @Test
  void aSiteWithAnUnderscoreReadsTheSitemapItsRobotsTxtLists() throws Exception {
    try (LineServer server = new LineServer()) {
      String origin = "http://my_site.test:" + server.port();
      server.robots = "User-agent: *\nAllow: /\nSitemap: /maps/a|b.xml\n";
      server.files.put("/maps/a|b.xml", origin + "/listed|only\n");
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"), TestCrawl.pinnedToLoopback("my_site.test")));

      assertTrue(server.requestLines.contains("GET /maps/a|b.xml HTTP/1.1"), server.requestLines.toString());
      assertTrue(server.requestLines.contains("GET /listed|only HTTP/1.1"), server.requestLines.toString());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + "/listed|only"));
    }
  }

  /** Configuration that keeps the query parameter {@code q} on {@code origin}'s URLs (queries are dropped by default). */
  private static String allowingQuery(String origin) {
    return "url_query_parameters: [ { prefix: \"" + origin + "/\", allow: [ \"q\" ] } ]\n";
  }

  private static Stream<String> responseUris(Path warc) {
    List<String> uris = new ArrayList<>();
    try (WarcReader reader = new WarcReader(Files.newInputStream(warc))) {
      for (var record : reader) {
        if (record instanceof WarcResponse response) uris.add(response.target());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return uris.stream();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Answers every request on its own connection, then closes it: {@code /robots.txt} is {@link
   * #robots}, {@code /} is {@link #page}, a target in {@link #redirects} a redirect, one in {@link
   * #files} a plain text file, anything else a small page. Keeps each request line and {@code Host} as received.
   */
  private static final class LineServer implements AutoCloseable {
    final List<String> requestLines = new CopyOnWriteArrayList<>();
    final List<String> hosts = new CopyOnWriteArrayList<>();
    volatile String page = "";
    volatile String robots = "User-agent: *\nAllow: /\n";
    final Map<String, String> files = new ConcurrentHashMap<>();
    /** Targets answered 301, with their Location as written, sent in UTF-8. */
    final Map<String, String> redirects = new ConcurrentHashMap<>();
    private final ServerSocket server = new ServerSocket();

    LineServer() throws IOException {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Thread.ofVirtual().start(() -> {
        while (!server.isClosed()) {
          try {
            Socket socket = server.accept();
            Thread.ofVirtual().start(() -> answer(socket));
          } catch (IOException e) {
            return;
          }
        }
      });
    }

    int port() {
      return server.getLocalPort();
    }

    private void answer(Socket socket) {
      try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
        List<String> head = readHead(in);
        String line = head.get(0);
        requestLines.add(line);
        head.stream().filter(h -> h.regionMatches(true, 0, "Host:", 0, 5))
            .forEach(h -> hosts.add(h.substring(5).strip()));
        String target = line.split(" ")[1];
        String location = redirects.get(target);
        if (location != null) {
          out.write("HTTP/1.1 301 Moved Permanently\r\nLocation: ".getBytes(ISO_8859_1));
          out.write(location.getBytes(UTF_8));
          out.write("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(ISO_8859_1));
          out.flush();
          return;
        }
        String text = target.equals("/robots.txt") ? robots : files.get(target);
        String type = text != null ? "text/plain" : "text/html";
        String body = text != null ? text : target.equals("/") ? page : "<html><body>page " + target + "</body></html>";
        byte[] bytes = body.getBytes(ISO_8859_1);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length
            + "\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        // the crawler went away
      }
    }

    private static List<String> readHead(InputStream in) throws IOException {
      List<String> lines = new ArrayList<>();
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int b = in.read(); b >= 0; b = in.read()) {
        if (b == '\n') {
          String text = line.toString(ISO_8859_1).stripTrailing();
          if (text.isEmpty()) return lines;
          lines.add(text);
          line.reset();
        } else {
          line.write(b);
        }
      }
      throw new IOException("request head ended early");
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
