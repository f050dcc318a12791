package org.forager.testweb;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One origin of a test web: a real HTTP server on 127.0.0.1 with routes set by the test, logging every
 * request with server-side times so tests can audit politeness (interval between the end of one
 * response and the arrival of the next request; requests in flight at once).
 */
public final class TestSite implements AutoCloseable {

  /** Answers one request. */
  @FunctionalInterface
  public interface Route {
    void handle(HttpExchange exchange) throws IOException;
  }

  /**
   * One request as the server saw it; times from {@link System#nanoTime()}.
   *
   * @param finishedNanos when the server started sending the response: the earliest moment the client
   *     can have seen its end. Taken before the write, not after, so that the server thread being
   *     descheduled after the write cannot make an interval look shorter than it was.
   */
  public record Request(String path, String query, Map<String, List<String>> headers, long arrivedNanos,
      long finishedNanos) {
    public String header(String name) {
      for (var e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) return e.getValue().get(0);
      }
      return null;
    }

    public String pathAndQuery() {
      return query == null ? path : path + "?" + query;
    }
  }

  private static final String RESPONDING = "forager.test.responding";
  /** A Runnable that ends the request's time in flight, once. */
  private static final String ANSWERED = "forager.test.answered";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Route> routes = new ConcurrentHashMap<>();
  private final List<Request> log = new ArrayList<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();

  private TestSite(HttpServer server) {
    this.server = server;
  }

  public static TestSite start() throws IOException {
    return start("127.0.0.1", 0);
  }

  /**
   * A site listening on {@code address} (a loopback one: 127.0.0.2 is as good as 127.0.0.1) and {@code
   * port} (0: any free one): a site closed and started again on both keeps its origin. Reach it by a
   * name pinned to that address ({@link #url(String, String)}); {@link #origin} names 127.0.0.1.
   */
  public static TestSite start(String address, int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 64);
    TestSite site = new TestSite(server);
    server.setExecutor(site.executor);
    server.createContext("/", site::dispatch);
    server.start();
    return site;
  }

  /** {@code http://127.0.0.1:PORT} */
  public String origin() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public String url(String pathAndQuery) {
    return origin() + pathAndQuery;
  }

  /** This site's port. */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * {@code http://HOST:PORT/path}: this site under another host name, which a test pins to loopback
   * with {@link TestCrawl#pinnedToLoopback}.
   */
  public String url(String host, String pathAndQuery) {
    return "http://" + host + ":" + port() + pathAndQuery;
  }

  /** Serves a route; path and query as requested, e.g. {@code /a?b=1} (exact match, query included). */
  public TestSite route(String pathAndQuery, Route route) {
    routes.put(pathAndQuery, route);
    return this;
  }

  public TestSite html(String path, String html) {
    return route(path, ex -> respond(ex, 200, "text/html; charset=utf-8", html));
  }

  public TestSite robots(String body) {
    return route("/robots.txt", ex -> respond(ex, 200, "text/plain", body));
  }

  /** A page linking to the given hrefs. */
  public TestSite linking(String path, String... hrefs) {
    StringBuilder sb = new StringBuilder("<!doctype html><html><head><title>").append(path)
        .append("</title></head><body>");
    for (String href : hrefs) sb.append("<a href=\"").append(href).append("\">link</a>\n");
    return html(path, sb.append("</body></html>").toString());
  }

  public static void respond(HttpExchange ex, int status, String contentType, String body) throws IOException {
    respond(ex, status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  public static void respond(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
    ex.setAttribute(RESPONDING, System.nanoTime());
    // In flight until the answer starts: a client that has read the whole answer may send its next
    // request before this handler's thread has returned, and that is no overlap.
    if (ex.getAttribute(ANSWERED) instanceof Runnable answered) answered.run();
    if (contentType != null) ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Every request so far, in order of arrival. */
  public List<Request> requests() {
    List<Request> copy;
    synchronized (this) {
      copy = new ArrayList<>(log);
    }
    copy.sort(java.util.Comparator.comparingLong(Request::arrivedNanos));
    return copy;
  }

  /** Paths (with query) requested so far, in order of arrival. */
  public List<String> paths() {
    return requests().stream().map(Request::pathAndQuery).toList();
  }

  public long count(String pathAndQuery) {
    return paths().stream().filter(pathAndQuery::equals).count();
  }

  /**
   * The most requests this origin ever had in flight at once: from arrival until {@link #respond}
   * starts the answer (or the handler returns, for routes that answer otherwise).
   */
  public int maxInFlight() {
    return maxInFlight.get();
  }

  /** Smallest gap between the end of one response and the arrival of the next request, in ms. */
  public double minIntervalMillis() {
    List<Request> requests = requests();
    double min = Double.MAX_VALUE;
    for (int i = 1; i < requests.size(); i++) {
      min = Math.min(min, (requests.get(i).arrivedNanos() - requests.get(i - 1).finishedNanos()) / 1e6);
    }
    return min;
  }

  private void dispatch(HttpExchange ex) throws IOException {
    long arrived = System.nanoTime();
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable answered = () -> {
      if (done.compareAndSet(false, true)) inFlight.decrementAndGet();
    };
    ex.setAttribute(ANSWERED, answered);
    String path = ex.getRequestURI().getRawPath();
    String query = ex.getRequestURI().getRawQuery();
    try {
      Route route = routes.get(query == null ? path : path + "?" + query);
      if (route == null) respond(ex, 404, "text/html", "<html><body>not found</body></html>");
      else route.handle(ex);
    } finally {
      ex.close();
      answered.run(); // a route that wrote its answer without respond()
      synchronized (this) {
        Object responding = ex.getAttribute(RESPONDING);
        long finished = responding instanceof Long t ? t : System.nanoTime();
        log.add(new Request(path, query, Map.copyOf(ex.getRequestHeaders()), arrived, finished));
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
