package org.forager.status;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.crawl.CrawlControl;
import org.forager.status.BoundedHttpServer.Reply;

/**
 * What the status server answers (docs/status.md): the page at {@code /}, its JSON at
 * {@code /api/status}, the metrics at {@code /metrics}, GET and HEAD only; once enabled, the control
 * API under {@code /api/control/} ({@link ControlEndpoints}); and only to the hosts
 * {@link AllowedHosts} lets through. Every crawled string reaches the JSON escaped by
 * {@link HtmlSafeEscapes}; the page sets them as text only, under a Content-Security-Policy that lets
 * no script run but its own. Thread-safe.
 */
final class StatusEndpoints implements BoundedHttpServer.Handler {

  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final byte[] page;
  private final String pagePolicy;
  private final LiveStatus live;
  private final CrawlMetrics metrics;
  private final AllowedHosts hosts;
  private final java.util.concurrent.atomic.AtomicReference<ControlEndpoints> control =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final ObjectMapper json = new ObjectMapper(new JsonFactoryBuilder()
      .characterEscapes(new HtmlSafeEscapes()).build())
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
  /** One report or scrape at a time: however many clients ask, at most one core renders. */
  private final ReentrantLock rendering = new ReentrantLock();

  StatusEndpoints(byte[] page, LiveStatus live, CrawlMetrics metrics, AllowedHosts hosts) {
    this.page = page.clone();
    this.pagePolicy = pagePolicy(new String(page, StandardCharsets.UTF_8));
    this.live = live;
    this.metrics = metrics;
    this.hosts = hosts;
  }

  /**
   * Serves the control API under {@code /api/control/} from now on, for the page's buttons (404 there
   * until then), and reports its state in {@code /api/status}.
   */
  void enableControl(CrawlControl crawlControl, ControlToken token) {
    ControlEndpoints endpoints = new ControlEndpoints(crawlControl, token, hosts);
    control.set(endpoints);
    live.control(endpoints::state);
  }

  @Override
  public Reply handle(RequestHead request, byte[] body) {
    if (!hosts.allows(request.host())) {
      return Reply.text(request.host().isEmpty() ? 400 : 421, "this server answers only the names it is "
          + "known by (status.bind, localhost, status.allowed_hosts)");
    }
    String path = request.path();
    if (path.startsWith(ControlEndpoints.PREFIX)) {
      ControlEndpoints endpoints = control.get();
      return endpoints == null ? Reply.text(404, "no control here") : endpoints.handle(request, body);
    }
    boolean known = path.equals("/") || path.equals("/index.html") || path.equals("/api/status")
        || path.equals("/metrics");
    if (!known) return Reply.text(404, "not found");
    if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
      return new Reply(405, Map.of("Content-Type", "text/plain; charset=utf-8", "Allow", "GET, HEAD"),
          "method not allowed\n".getBytes(StandardCharsets.UTF_8));
    }
    return switch (path) {
      case "/api/status" -> reply("application/json", "default-src 'none'", renderJson());
      case "/metrics" -> reply(PROMETHEUS_TEXT, "default-src 'none'", renderMetrics());
      default -> reply("text/html; charset=utf-8", pagePolicy, page);
    };
  }

  private byte[] renderJson() {
    rendering.lock();
    try {
      return json.writeValueAsBytes(live.report());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the status report", e);
    } finally {
      rendering.unlock();
    }
  }

  private byte[] renderMetrics() {
    rendering.lock();
    try {
      return metrics.scrape().getBytes(StandardCharsets.UTF_8);
    } finally {
      rendering.unlock();
    }
  }

  private static Reply reply(String contentType, String policy, byte[] body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", contentType);
    headers.put("Cache-Control", "no-store");
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Content-Security-Policy", policy);
    return new Reply(200, headers, body);
  }

  /**
   * The page's policy: its own inline script and style (by hash) and requests to this server, nothing
   * else; a script smuggled into the page by a crawled string would not run.
   */
  static String pagePolicy(String html) {
    return "default-src 'none'; script-src " + inlineHash(html, "script") + "; style-src "
        + inlineHash(html, "style") + "; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        + "frame-ancestors 'none'";
  }

  private static String inlineHash(String html, String tag) {
    Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(html);
    if (!m.find()) throw new IllegalStateException("the status page has no inline <" + tag + ">");
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(m.group(1).getBytes(StandardCharsets.UTF_8));
      return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
