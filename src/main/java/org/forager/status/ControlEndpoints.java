package org.forager.status;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.forager.config.Durations;
import org.forager.crawl.CrawlControl;
import org.forager.url.Origin;
import org.forager.status.BoundedHttpServer.Reply;

/**
 * The control API ({@code POST /api/control/ACTION}, JSON; docs/status.md, "Control"): the operator's
 * orders to the running crawl, through {@link CrawlControl}. Whoever may send an order, in this order
 * of checks (the {@code Host} check against DNS rebinding comes before, as for every path):
 *
 * <ol>
 *   <li>{@code POST} only (405): a link, an image or a prefetch cannot give an order;
 *   <li>no cross-site request from a browser (403): an {@code Origin} header must name this server
 *       itself (http, a name it answers to, its port), and {@code Sec-Fetch-Site} must say
 *       {@code same-origin} or {@code none};
 *   <li>{@code Authorization: Bearer TOKEN} with the crawl's token ({@link ControlToken}), compared in
 *       constant time (401);
 *   <li>a body, when there is one, is a JSON object ({@code Content-Type: application/json}, 415) of
 *       at most 16 KiB ({@link BoundedHttpServer}, 413).
 * </ol>
 *
 * Who gave the order ({@code X-Forager-Client}: {@code cli}, {@code page}; {@code api} without it)
 * goes to the crawl log with it. Thread-safe.
 */
final class ControlEndpoints {

  static final String PREFIX = "/api/control/";
  private static final Pattern CLIENT = Pattern.compile("[a-z][a-z0-9-]{0,15}");

  private final CrawlControl control;
  private final ControlToken token;
  private final AllowedHosts hosts;
  private final ObjectMapper json = new ObjectMapper(new JsonFactoryBuilder()
      .characterEscapes(new HtmlSafeEscapes()).build())
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  /** @param hosts the names the server answers to: an {@code Origin} must name one of them */
  ControlEndpoints(CrawlControl control, ControlToken token, AllowedHosts hosts) {
    this.control = control;
    this.token = token;
    this.hosts = hosts;
  }

  /** What the status report says of the control. */
  CrawlControl.State state() {
    return control.state();
  }

  /** Answers a request whose path starts with {@link #PREFIX} (its {@code Host} already checked). */
  Reply handle(RequestHead request, byte[] body) {
    if (!request.method().equals("POST")) {
      return new Reply(405, Map.of("Content-Type", "application/json", "Allow", "POST"),
          error("orders are POST requests"));
    }
    if (!sameOrigin(request)) {
      return reply(403, error("a cross-site request: orders come from this server's own page or a client "
          + "that sends no Origin"));
    }
    if (!token.authorizes(request.header("authorization"))) {
      return new Reply(401, Map.of("Content-Type", "application/json", "WWW-Authenticate", "Bearer realm=\"forager\""),
          error("no token, or not this crawl's: send Authorization: Bearer TOKEN (the token is in the data "
              + "directory's control.json)"));
    }
    Optional<String> client = request.header("x-forager-client");
    if (client.isPresent() && !CLIENT.matcher(client.get()).matches()) {
      return reply(400, error("X-Forager-Client is a short lower-case name, e.g. cli"));
    }
    JsonNode order;
    try {
      order = parse(request, body);
    } catch (IllegalArgumentException e) {
      return reply(e.getMessage().startsWith("Content-Type") ? 415 : 400, error(e.getMessage()));
    }
    String by = client.orElse("api");
    try {
      return reply(200, carryOut(request.path().substring(PREFIX.length()), order, by));
    } catch (IllegalArgumentException e) {
      return reply(e instanceof UnknownAction ? 404 : 400, error(e.getMessage()));
    } catch (IllegalStateException e) {
      return reply(409, error(e.getMessage()));
    } catch (UncheckedIOException e) {
      return reply(500, error(e.getMessage()));
    }
  }

  /** What an order for an origin outside the scope adds to its answer: most likely a mistyped origin. */
  private String unknown(Origin origin) {
    return control.inScope(origin) ? ""
        : " (note: " + origin + " is not an origin of this crawl so far; the order holds if it comes in: check the"
            + " scheme, host and port)";
  }

  private byte[] carryOut(String action, JsonNode order, String by) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("ok", true);
    answer.put("action", action);
    Optional<String> origin = text(order, "origin");
    switch (action) {
      case "pause" -> {
        if (origin.isPresent()) {
          Origin o = control.pauseOrigin(origin.get(), by);
          answer.put("message", "paused " + o + ": it sends no further request until resumed" + unknown(o));
        } else {
          control.pause(by);
          answer.put("message", "paused: no new request starts; " + control.state().turnsInFlight()
              + " in flight finish");
        }
      }
      case "resume" -> {
        if (origin.isPresent()) {
          Origin o = control.resumeOrigin(origin.get(), by);
          answer.put("message", "resumed " + o + unknown(o));
        }
        else {
          control.resume(by);
          answer.put("message", "resumed");
        }
      }
      case "block" -> {
        String asked = required(order, "host");
        boolean already = control.blockOf(asked).isPresent();
        String host = control.block(asked, by);
        answer.put("host", host);
        answer.put("message", "blocked " + host + CrawlControl.alsoBlocked(host) + (already ? " (it was blocked already)" : "")
            + ": no further request of any kind");
      }
      case "unblock" -> {
        String host = required(order, "host");
        boolean was = control.unblock(host, by);
        answer.put("message", was ? "unblocked " + host : host + " was not blocked");
      }
      case "set-delay" -> {
        String delay = required(order, "delay");
        Optional<Duration> d = delay.equals("default") ? Optional.empty() : Optional.of(Durations.parse(delay));
        Origin o = control.setDelay(required(order, "origin"), d, by);
        Duration configured = control.configuredMinDelay(o);
        answer.put("message", d.map(x -> "delay of " + o + " set to " + Durations.format(x)
            + " (never below its robots.txt Crawl-delay)" + (x.compareTo(configured) < 0 ? "; below the configured"
            + " min_delay of " + Durations.format(configured) + ": its server sees requests that much closer" : ""))
            .orElse("delay of " + o + " back to the configured one") + unknown(o));
      }
      case "add-seed" -> {
        List<String> urls = new ArrayList<>();
        JsonNode list = order.path("urls");
        if (!list.isArray()) throw new IllegalArgumentException("add-seed needs \"urls\": [ ... ]");
        for (JsonNode url : list) {
          if (!url.isTextual()) throw new IllegalArgumentException("\"urls\" holds strings only");
          urls.add(url.asText());
        }
        List<CrawlControl.SeedResult> results = control.addSeeds(urls, by);
        answer.put("seeds", results);
        answer.put("message", String.join("\n", results.stream().map(r -> r.url() + ": " + r.result()).toList()));
      }
      case "retry-failed", "recrawl" -> {
        // A scan of every URL: longer than a client waits on a large crawl. Answered at once; the crawl
        // log's control line says how many when it is done.
        Optional<String> host = text(order, "host");
        Optional<String> name = host.map(CrawlControl::host); // a bad one is a 400, now
        boolean failed = action.equals("retry-failed");
        Thread.ofVirtual().name("forager-" + action).start(() -> {
          try {
            if (failed) control.retryFailed(name, by);
            else control.recrawl(name, by);
          } catch (RuntimeException e) {
            System.getLogger("org.forager.status").log(System.Logger.Level.WARNING, action + " failed", e);
          }
        });
        answer.put("message", "making the " + (failed ? "URLs whose last request failed" : "crawled URLs") + " due now"
            + name.map(h -> " (of " + h + " and the hosts under it)").orElse("")
            + ", in one scan of the crawl database: its line in the crawl log says how many when done");
      }
      case "stop" -> {
        control.stop(by);
        answer.put("message", "stopping after the fetches in flight");
      }
      default -> throw new UnknownAction(action);
    }
    return write(answer);
  }

  /** A browser names the page that sent the request; only this server's own may send orders. */
  private boolean sameOrigin(RequestHead request) {
    Optional<String> site = request.header("sec-fetch-site");
    if (site.isPresent() && !site.get().equals("same-origin") && !site.get().equals("none")) return false;
    Optional<String> origin = request.header("origin");
    if (origin.isEmpty()) return true; // not a browser's cross-site request: they always carry Origin
    URI uri;
    try {
      uri = URI.create(origin.get());
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (!"http".equals(uri.getScheme()) || uri.getRawAuthority() == null || uri.getRawPath() == null
        || !uri.getRawPath().isEmpty()) {
      return false; // "null" (a sandboxed frame, a file), https, or not an origin
    }
    return hosts.allows(Optional.of(uri.getRawAuthority()));
  }

  private static JsonNode parse(RequestHead request, byte[] body) {
    if (body.length == 0) return com.fasterxml.jackson.databind.node.NullNode.getInstance();
    String type = request.header("content-type").orElse("");
    if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      throw new IllegalArgumentException("Content-Type of an order must be application/json");
    }
    JsonNode node;
    try {
      node = new ObjectMapper().readTree(body);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("the body is not JSON");
    }
    if (node == null || !node.isObject()) throw new IllegalArgumentException("the body is not a JSON object");
    return node;
  }

  private static Optional<String> text(JsonNode order, String field) {
    JsonNode value = order.path(field);
    return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static String required(JsonNode order, String field) {
    return text(order, field).orElseThrow(() -> new IllegalArgumentException("this order needs \"" + field
        + "\": \"...\""));
  }

  private byte[] error(String message) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("ok", false);
    answer.put("error", message);
    return write(answer);
  }

  private byte[] write(Object value) {
    try {
      return json.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an answer", e);
    }
  }

  private static Reply reply(int status, byte[] body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("Cache-Control", "no-store");
    headers.put("X-Content-Type-Options", "nosniff");
    return new Reply(status, headers, body);
  }

  /** A path under {@link #PREFIX} that names no order: 404. */
  private static final class UnknownAction extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownAction(String action) {
      super("no such order: " + (action.length() > 40 ? action.substring(0, 40) + "..." : action)
          + " (pause, resume, block, unblock, set-delay, add-seed, retry-failed, recrawl, stop)");
    }
  }
}
