package org.forager.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig;
import org.forager.crawl.CrawlListener;
import org.forager.crawl.RunView;
import org.forager.record.CrawlAction;
import org.forager.store.CrawlStore;

/**
 * The status server of a crawl (docs/status.md): the live page at {@code /}, its JSON at
 * {@code /api/status} and Prometheus metrics at {@code /metrics}, on the JDK's HTTP server.
 *
 * <pre>{@code
 * try (StatusServer status = StatusServer.start(config.status());
 *      Crawler crawler = Crawler.open(config, status::timed).listener(status.listener())) {
 *   crawler.run();
 * }
 * }</pre>
 *
 * <p>Answers only GET and HEAD. The page has no authentication and shows the URLs crawled: bind it
 * to loopback (the default) unless the network is trusted. Thread-safe.
 */
public final class StatusServer implements AutoCloseable {

  private static final String PAGE_RESOURCE = "status.html";
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService handlers;
  private final ScheduledExecutorService sampler;
  private final LiveStatus live;
  private final CrawlMetrics metrics;
  private final ObjectMapper json = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
  private final byte[] page;
  private final CrawlListener listener;

  private StatusServer(HttpServer server, ExecutorService handlers, ScheduledExecutorService sampler,
      LiveStatus live, CrawlMetrics metrics, byte[] page) {
    this.server = server;
    this.handlers = handlers;
    this.sampler = sampler;
    this.live = live;
    this.metrics = metrics;
    this.page = page;
    this.listener = new CrawlListener() {
      @Override
      public void runStarted(RunView run) {
        live.runStarted(run);
        metrics.runStarted(run);
      }

      @Override
      public void action(CrawlAction action) {
        live.action(action);
        metrics.action(action);
      }

      @Override
      public void runFinished() {
        live.runFinished();
      }
    };
  }

  /**
   * Starts serving as configured.
   *
   * @throws IllegalArgumentException when the status server is not enabled in {@code config}
   * @throws IOException when the address cannot be resolved or listened on (e.g. the port is taken)
   */
  public static StatusServer start(CrawlConfig.Status config) throws IOException {
    if (!config.enabled()) throw new IllegalArgumentException("status server not enabled: no port");
    return start(config.bind(), config.port().getAsInt());
  }

  /**
   * Starts serving on {@code bind}:{@code port} ({@code 0}: a free port, see {@link #uri}).
   *
   * @throws IOException when the address cannot be resolved or listened on
   */
  public static StatusServer start(String bind, int port) throws IOException {
    byte[] page = readPage();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 16);
    ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-status-sampler");
      t.setDaemon(true);
      return t;
    });
    LiveStatus live = new LiveStatus(Clock.systemUTC());
    StatusServer status = new StatusServer(server, handlers, sampler, live, new CrawlMetrics(), page);
    server.setExecutor(handlers);
    server.createContext("/", status::page);
    server.createContext("/api/status", status::apiStatus);
    server.createContext("/metrics", status::metrics);
    server.start();
    sampler.scheduleAtFixedRate(live::sample, 0, 1, TimeUnit.SECONDS);
    return status;
  }

  /** Where the page is, e.g. {@code http://127.0.0.1:8090/}. */
  public URI uri() {
    InetSocketAddress address = server.getAddress();
    String host = address.getAddress().getHostAddress();
    if (host.contains(":")) host = "[" + host + "]";
    return URI.create("http://" + host + ":" + address.getPort() + "/");
  }

  /** The listener to register with the crawler ({@code Crawler.listener}). */
  public CrawlListener listener() {
    return listener;
  }

  /** {@code store}, its calls timed for {@code /metrics}; for {@code Crawler.open(config, status::timed)}. */
  public CrawlStore timed(CrawlStore store) {
    return new TimedCrawlStore(store, metrics.registry());
  }

  private static byte[] readPage() {
    try (InputStream in = StatusServer.class.getResourceAsStream(PAGE_RESOURCE)) {
      if (in == null) throw new IllegalStateException("missing resource " + PAGE_RESOURCE);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void page(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (!path.equals("/") && !path.equals("/index.html")) {
      send(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    send(exchange, 200, "text/html; charset=utf-8", page);
  }

  private void apiStatus(HttpExchange exchange) throws IOException {
    send(exchange, 200, "application/json", json.writeValueAsBytes(live.report()));
  }

  private void metrics(HttpExchange exchange) throws IOException {
    send(exchange, 200, PROMETHEUS_TEXT, metrics.scrape().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      boolean head = method.equals("HEAD");
      if (!head && !method.equals("GET")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  /** Stops serving; the metrics and status stop with it. */
  @Override
  public void close() {
    server.stop(0);
    sampler.shutdownNow();
    handlers.close();
    metrics.close();
  }
}
