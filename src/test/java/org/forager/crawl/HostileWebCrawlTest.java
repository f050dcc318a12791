package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.forager.bench.web.Audit;
import org.forager.bench.web.Servers;
import org.forager.bench.web.SyntheticWebServer;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's end-to-end check: 200 well-behaved origins (the synthetic web) crawled together with 20
 * hostile ones (endless headers, a huge Retry-After, a gzip sitemap bomb, robots.txt redirecting to an
 * excluded host, slowloris, a gzip bomb page, an endless body, denial of everything, a redirect loop,
 * connections closed unanswered). Every well-behaved origin is crawled to the last page, politely, the
 * excluded host hears nothing, and {@code forager crawl} (a child JVM with the launcher's heap options)
 * exits 0 with a clean politeness audit.
 */
@Timeout(240)
class HostileWebCrawlTest {

  private static final int WELL_BEHAVED = 200;
  private static final int PAGES = 5;

  @TempDir Path tmp;
  private final List<AutoCloseable> servers = new ArrayList<>();

  @AfterEach
  void closeServers() throws Exception {
    for (AutoCloseable s : servers) s.close();
  }

  @Test
  void wellBehavedOriginsAreCrawledInFullAmongHostileOnesAndTheCrawlExitsZero() throws Exception {
    SyntheticWebServer web = Servers.start(WELL_BEHAVED, PAGES, Duration.ZERO);
    servers.add(web);
    TestSite excluded = site();
    excluded.linking("/secret-admin?token=abc");
    List<String> seeds = new ArrayList<>();
    for (int h = 0; h < WELL_BEHAVED; h++) seeds.add(web.config().origin(h) + "/");
    for (int copy = 0; copy < 2; copy++) {
      seeds.add(raw(HostileWebCrawlTest::endlessHeaders));
      seeds.add(raw(HostileWebCrawlTest::slowloris));
      seeds.add(raw(HostileWebCrawlTest::closeUnanswered));
      seeds.add(raw(HostileWebCrawlTest::endlessChunkedBody));
      seeds.add(localhost(site().route("/", ex -> {
        ex.getResponseHeaders().set("Retry-After", "99999999999999999");
        TestSite.respond(ex, 429, "text/plain", "later");
      })));
      seeds.add(localhost(sitemapBomb(site())));
      TestSite redirecting = site();
      redirecting.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", excluded.url("/secret-admin?token=abc"));
        TestSite.respond(ex, 302, null, "");
      }).linking("/", excluded.url("/"));
      seeds.add(localhost(redirecting));
      seeds.add(localhost(gzipBombPage(site())));
      seeds.add(localhost(site().route("/", ex -> TestSite.respond(ex, 403, "text/plain", "no")).linking("/x")));
      TestSite loop = site();
      loop.route("/", ex -> redirect(ex, "/a")).route("/a", ex -> redirect(ex, "/"));
      seeds.add(localhost(loop));
    }
    seeds.add(excluded.url("/"));

    Path data = tmp.resolve("data");
    StringBuilder yaml = new StringBuilder();
    yaml.append("user_agent: \"ForagerBot/0.1 (+https://example.org/bot)\"\n");
    yaml.append("data_dir: \"").append(data).append("\"\nseeds:\n");
    for (String seed : seeds) yaml.append("  - \"").append(seed).append("\"\n");
    yaml.append("concurrency: 64\n");
    yaml.append("politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n");
    yaml.append("limits: { fetch_timeout: 2s, max_retries: 1 }\n");
    yaml.append("network: { allow_private_addresses: true }\n");
    yaml.append("do_not_crawl: [ { host: \"127.0.0.1\" } ]\n");
    Path config = Files.writeString(tmp.resolve("crawl.yaml"), yaml);

    // As a user runs it: its own JVM with the launcher's heap and collector (./forager).
    Path out = tmp.resolve("crawl.out");
    List<String> launcherHeap = List.of("-Xmx264m", "-Xms264m", "-XX:+UseParallelGC", "-XX:NewRatio=1");
    Process crawl = ChildCrawl.builder(launcherHeap, config, "--quiet")
        .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
    assertTrue(crawl.waitFor(200, TimeUnit.SECONDS), "the crawl ended");
    assertEquals(0, crawl.exitValue(), Files.readString(out));

    Audit audit = web.audit();
    assertEquals(1.0, audit.coverage(), "every page of every well-behaved origin: " + audit.summaryLine());
    assertEquals(1, audit.maxInFlight(), "one request in flight per origin");
    // No gap provably under the delay: even counted from when the server began writing the previous
    // response (the latest the crawler can have had it), each next request came 20 ms later or more.
    // Counted from the write's end, a server thread descheduled under load between its write and its
    // clock reading made one gap look 18.65 ms; the crawler's own log (assertPolite, below) times the
    // delay from when it had read the whole body.
    assertTrue(audit.minIntervalFromWriteStartNanos().orElseThrow() >= 20_000_000L, audit.summaryLine());
    assertEquals(List.of(), excluded.paths(), "the excluded host heard nothing");
    TestCrawl.assertPolite(data);
  }

  private TestSite site() throws IOException {
    TestSite site = TestSite.start();
    servers.add(site);
    return site;
  }

  /** The hostile sites are reached as {@code localhost}: 127.0.0.1 is the excluded host's name. */
  private static String localhost(TestSite site) {
    return site.origin().replace("127.0.0.1", "localhost") + "/";
  }

  private static void redirect(com.sun.net.httpserver.HttpExchange ex, String to) throws IOException {
    ex.getResponseHeaders().set("Location", to);
    TestSite.respond(ex, 301, null, "");
  }

  private static TestSite sitemapBomb(TestSite site) throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(gz)) {
      out.write("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
          .getBytes(StandardCharsets.UTF_8));
      byte[] entry = ("<url><loc>" + site.origin() + "/page</loc><lastmod>2026-01-01</lastmod></url>\n")
          .getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < 600_000; i++) out.write(entry); // ~45 MB of XML, a few hundred KB gzipped
      out.write("</urlset>".getBytes(StandardCharsets.UTF_8));
    }
    byte[] bomb = gz.toByteArray();
    return site.robots("User-agent: *\nAllow: /\nSitemap: " + site.origin() + "/sitemap.xml.gz\n")
        .route("/sitemap.xml.gz", ex -> TestSite.respond(ex, 200, "application/gzip", bomb))
        .linking("/");
  }

  private static TestSite gzipBombPage(TestSite site) throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(gz)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 256; i++) out.write(zeros); // 256 MiB decoded
    }
    byte[] bomb = gz.toByteArray();
    return site.route("/", ex -> {
      ex.getResponseHeaders().set("Content-Encoding", "gzip");
      TestSite.respond(ex, 200, "text/html", bomb);
    });
  }

  /** A raw socket server on 127.0.0.1, one virtual thread per connection. */
  private String raw(RawHandler handler) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    servers.add(server);
    Thread.ofVirtual().start(() -> {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          Thread.ofVirtual().start(() -> {
            try (socket) {
              handler.handle(socket, requestLine(socket.getInputStream()));
            } catch (IOException e) {
              // the crawler hung up, as it should
            }
          });
        } catch (IOException e) {
          return;
        }
      }
    });
    return "http://localhost:" + server.getLocalPort() + "/";
  }

  private interface RawHandler {
    void handle(Socket socket, String requestLine) throws IOException;
  }

  /** Reads a request head; returns its first line. */
  private static String requestLine(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      head.append((char) c);
      if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) break;
    }
    int end = head.indexOf("\r\n");
    return end < 0 ? head.toString() : head.substring(0, end);
  }

  private static void endlessHeaders(Socket socket, String requestLine) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n".getBytes(StandardCharsets.US_ASCII));
    byte[] line = ("X-Pad: " + "a".repeat(16 * 1024 - 12) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    while (true) out.write(line); // until the crawler hangs up
  }

  private static void slowloris(Socket socket, String requestLine) throws IOException {
    OutputStream out = socket.getOutputStream();
    if (requestLine.startsWith("GET /robots.txt")) {
      out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      requestLine = requestLine(socket.getInputStream());
      if (requestLine.isEmpty()) return;
    }
    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < 100_000; i++) {
      out.write('a');
      out.flush();
      PolitenessTest.sleep(200);
    }
  }

  private static void closeUnanswered(Socket socket, String requestLine) {
    // reads the request, answers nothing, closes
  }

  private static void endlessChunkedBody(Socket socket, String requestLine) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII));
    byte[] chunk = ("4000\r\n" + "<p>".repeat(16384 / 3) + "a".repeat(16384 % 3) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    while (true) out.write(chunk);
  }
}
