package org.forager.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig;
import org.forager.crawl.CrawlControl;
import org.forager.crawl.CrawlListener;
import org.forager.crawl.RunView;
import org.forager.record.CrawlAction;
import org.forager.store.CrawlStore;

/**
 * The status server of a crawl (docs/status.md): the live page at {@code /}, its JSON at
 * {@code /api/status} and Prometheus metrics at {@code /metrics}, on a {@link BoundedHttpServer}.
 *
 * <pre>{@code
 * try (StatusServer status = StatusServer.start(config.status());
 *      Crawler crawler = Crawler.open(config, status::timed).listener(status.listener())) {
 *   crawler.run();
 * }
 * }</pre>
 *
 * <p>Answers only GET and HEAD (and, once {@link #enableControl enabled}, the control API's POSTs,
 * which need the crawl's token), only to the hosts it is known by ({@link AllowedHosts}), with at most
 * {@link #MAX_CONNECTIONS} connections at once. The page has no authentication and shows the URLs
 * crawled: bind it to loopback (the default) unless the network is trusted ({@link #exposureWarning}).
 * Thread-safe.
 */
public final class StatusServer implements AutoCloseable {

  /** Connections served at once; more are closed as soon as accepted. */
  public static final int MAX_CONNECTIONS = BoundedHttpServer.Limits.DEFAULT.maxConnections();

  private static final String PAGE_RESOURCE = "status.html";

  private final BoundedHttpServer server;
  private final ScheduledExecutorService sampler;
  private final CrawlMetrics metrics;
  private final CrawlListener listener;
  private final StatusEndpoints endpoints;

  private StatusServer(BoundedHttpServer server, ScheduledExecutorService sampler, LiveStatus live,
      CrawlMetrics metrics, StatusEndpoints endpoints) {
    this.server = server;
    this.endpoints = endpoints;
    this.sampler = sampler;
    this.metrics = metrics;
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
    return start(config.bind(), config.port().getAsInt(), config.allowedHosts(), BoundedHttpServer.Limits.DEFAULT);
  }

  /**
   * Starts serving on {@code bind}:{@code port} ({@code 0}: a free port, see {@link #uri}).
   *
   * @throws IOException when the address cannot be resolved or listened on
   */
  public static StatusServer start(String bind, int port) throws IOException {
    return start(bind, port, List.of(), BoundedHttpServer.Limits.DEFAULT);
  }

  static StatusServer start(String bind, int port, List<String> allowedHosts, BoundedHttpServer.Limits limits)
      throws IOException {
    byte[] page = readPage();
    ServerSocket listening = BoundedHttpServer.listen(new InetSocketAddress(InetAddress.getByName(bind), port));
    InetSocketAddress bound = (InetSocketAddress) listening.getLocalSocketAddress();
    LiveStatus live = new LiveStatus(Clock.systemUTC());
    CrawlMetrics metrics = new CrawlMetrics();
    StatusEndpoints endpoints;
    try {
      endpoints = new StatusEndpoints(page, live, metrics, AllowedHosts.of(bound, bind, allowedHosts));
    } catch (RuntimeException e) {
      listening.close();
      metrics.close();
      throw e;
    }
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-status-sampler");
      t.setDaemon(true);
      return t;
    });
    StatusServer status = new StatusServer(BoundedHttpServer.start(listening, limits, endpoints), sampler, live,
        metrics, endpoints);
    sampler.scheduleAtFixedRate(live::sample, 0, 1, TimeUnit.SECONDS);
    return status;
  }

  /** Where the page is, e.g. {@code http://127.0.0.1:8090/}. */
  public URI uri() {
    InetSocketAddress address = server.address();
    String host = address.getAddress().getHostAddress();
    if (host.contains(":")) host = "[" + host + "]";
    return URI.create("http://" + host + ":" + address.getPort() + "/");
  }

  /**
   * What to tell the operator when the server listens on more than loopback: anyone who can reach it
   * reads the crawl. Empty on loopback.
   */
  public Optional<String> exposureWarning() {
    return exposureWarning(server.address());
  }

  static Optional<String> exposureWarning(InetSocketAddress address) {
    InetAddress a = address.getAddress();
    if (a.isLoopbackAddress()) return Optional.empty();
    String where = a.isAnyLocalAddress() ? "every network interface (" + a.getHostAddress() + ")"
        : a.getHostAddress();
    return Optional.of("the status page listens on " + where + ", port " + address.getPort() + ", not on loopback: "
        + "anyone who can reach that address can read the crawl's URLs, errors and metrics (there is no "
        + "authentication; see status.bind)");
  }

  /**
   * Serves the crawl's control API under {@code /api/control/} too, for the page's buttons, with the
   * same token as {@code forager ctl} uses; the page reports the control's state (paused, blocks).
   */
  public void enableControl(CrawlControl control, ControlToken token) {
    endpoints.enableControl(control, token);
  }

  /** The page, carrying the control token in its fragment: a browser never sends a fragment to a server. */
  public URI pageWithToken(ControlToken token) {
    return URI.create(uri() + "#token=" + token.value());
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

  /** Stops serving; the metrics and status stop with it. */
  @Override
  public void close() {
    server.close();
    sampler.shutdownNow();
    metrics.close();
  }
}
