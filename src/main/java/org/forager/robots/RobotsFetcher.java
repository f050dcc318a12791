package org.forager.robots;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Fetcher;
import org.forager.fetch.Outcome;
import org.forager.policy.RequestGate;
import org.forager.policy.Verdict;
import org.forager.store.OriginState.RobotsTxt;
import org.forager.url.FieldUrl;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * Fetches an origin's robots.txt as RFC 9309 section 2.3.1 asks: redirects followed up to five hops,
 * the body kept up to {@link RobotsRules#MAX_PARSED_BYTES}. Every hop goes through the crawl's
 * {@link RequestGate} first (scope, do_not_crawl, the exclusion file), as any request does, and then
 * through the fetcher's network policy. A redirect to another origin's own robots.txt (http to https,
 * the apex to www) is not requested from this origin's turn (it would break that origin's politeness:
 * a second request in flight, its delay skipped): the result names that origin
 * ({@link Result#rulesOf}), whose rules the caller takes once that origin's own turn has read them.
 * A redirect to a URL the gate refuses, or to any other URL of another origin, is not followed: the
 * file is then "unavailable" in the RFC's terms (section 2.3.1.3: allow all), as past the redirect
 * limit, since the site gave no rules the crawl may read. Thread-safe.
 */
public final class RobotsFetcher {

  /** RFC 9309 section 2.3.1.2: follow at least five consecutive redirects. */
  static final int MAX_REDIRECTS = 5;

  private final Fetcher fetcher;
  private final Duration cacheTtl;
  private final Clock clock;
  private final RequestGate gate;

  public RobotsFetcher(Fetcher fetcher, Duration cacheTtl, Clock clock, RequestGate gate) {
    this.fetcher = fetcher;
    this.cacheTtl = cacheTtl;
    this.clock = clock;
    this.gate = gate;
  }

  /**
   * A URL of the chain the gate refused: no request was sent to it.
   *
   * @param url the refused URL (a redirect target, or the origin's own robots.txt)
   * @param verdict why
   */
  public record Refusal(String url, Verdict.Rejected verdict) {}

  /**
   * What one robots.txt fetch came to.
   *
   * @param hops every request made, in order (the first is the origin's /robots.txt)
   * @param refused the URL the chain stopped at because the gate refused it, if it did
   * @param robotsTxt what to keep: status 0 when unreachable (or when the rules are another origin's,
   *     not read yet); expires at once unless it was a definite answer (2xx or 4xx)
   * @param rulesOf the origin whose robots.txt the chain redirected to, not requested: its rules are
   *     this origin's (RFC 9309 section 2.3.1.2), to be read by that origin's own turn
   */
  public record Result(List<FetchResult> hops, Optional<Refusal> refused, RobotsTxt robotsTxt,
      Optional<Origin> rulesOf) {

    Result(List<FetchResult> hops, Optional<Refusal> refused, RobotsTxt robotsTxt) {
      this(hops, refused, robotsTxt, Optional.empty());
    }

    Result(List<FetchResult> hops, RobotsTxt robotsTxt) {
      this(hops, Optional.empty(), robotsTxt);
    }
  }

  /** Fetches without pausing between redirect hops (for tests and tools, not the crawl). */
  public Result fetch(Origin origin) {
    return fetch(origin, hop -> 0);
  }

  /**
   * Fetches, waiting between a redirect and the next hop the delay {@code delayAfter} gives for the
   * redirect's response: each hop is a request and owes the origin its delay like any other, a delay
   * that grows with the origin's response times (the caller counts the hop's among them).
   */
  public Result fetch(Origin origin, ToLongFunction<FetchResult> delayAfter) {
    return fetch(origin, delayAfter, Optional.empty());
  }

  /**
   * Like {@link #fetch(Origin, ToLongFunction)}, every hop connecting to {@code address} when present
   * (hops never leave the origin, so never its host): the address whose per-IP politeness slot the
   * caller holds.
   */
  public Result fetch(Origin origin, ToLongFunction<FetchResult> delayAfter, Optional<InetAddress> address) {
    List<FetchResult> hops = new ArrayList<>();
    String url = origin.robotsTxtUrl();
    for (int hop = 0; ; hop++) {
      if (gate.checkRequest(url) instanceof Verdict.Rejected rejected) {
        // Not even robots.txt may be requested: the caller should not have asked (no rules to use).
        if (hop == 0) return new Result(hops, Optional.of(new Refusal(url, rejected)), unreachable());
        return new Result(hops, Optional.of(new Refusal(url, rejected)), definite(404, new byte[0]));
      }
      if (hop > 0 && !origin.contains(url)) {
        // A request to another origin from this origin's turn would ignore that origin's delay and its
        // one request in flight (it may be crawling now): not sent. That origin's own robots.txt is
        // fetched in its own turns, and its rules are this origin's.
        Origin target = Origin.ofUrl(url);
        if (url.equals(target.robotsTxtUrl())) return new Result(hops, Optional.empty(), unreachable(), Optional.of(target));
        Verdict.Rejected other = new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY,
            "robots.txt redirect to another origin's URL other than its robots.txt: not requested from this origin's turn");
        return new Result(hops, Optional.of(new Refusal(url, other)), definite(404, new byte[0]));
      }
      if (hop > 0 && !pause(delayAfter.applyAsLong(hops.get(hop - 1)))) return new Result(hops, unreachable());
      // Read up to the 500 KiB parsed whatever limits.max_page_bytes: a smaller page cap must not cut
      // the file short (a cut file is unreachable below, and the origin would never be crawled).
      FetchResult result = fetcher.fetch(FetchRequest.of(url).connectingTo(address)
          .readingAtLeast(RobotsRules.MAX_PARSED_BYTES));
      hops.add(result);
      if (!(result instanceof FetchResult.Response response)) {
        // A redirect to an address the network policy refuses was not sent: like a hop the gate
        // refuses, the file is unavailable. The origin's own address refused is the caller's matter.
        boolean refusedHop = hop > 0 && result instanceof FetchResult.Failure f
            && f.kind() == FetchResult.FailureKind.BLOCKED_BY_NETWORK_POLICY;
        return new Result(hops, refusedHop ? definite(404, new byte[0]) : unreachable());
      }
      int status = response.status();
      if (status >= 300 && status < 400) {
        var next = response.header("Location")
            .flatMap(location -> UrlNormalizer.resolve(response.url(), FieldUrl.text(location)));
        if (next.isEmpty() || hop >= MAX_REDIRECTS) {
          // RFC 9309 2.3.1.2: past the redirect limit the file counts as unavailable (allow all).
          return new Result(hops, definite(404, new byte[0]));
        }
        url = next.get();
        continue;
      }
      if (response.truncated() && response.body().length < RobotsRules.MAX_PARSED_BYTES && status < 300) {
        // Cut short before 500 KiB (deadline, reset): a partial file could drop a Disallow.
        return new Result(hops, unreachable());
      }
      byte[] body = response.body();
      if (body.length > RobotsRules.MAX_PARSED_BYTES) {
        body = java.util.Arrays.copyOf(body, RobotsRules.MAX_PARSED_BYTES);
      }
      boolean definite = (status >= 200 && status < 300) || (status >= 400 && status < 500 && status != 429);
      return new Result(hops, definite ? definite(status, body) : new RobotsTxt(status, body, clock.instant(), clock.instant()));
    }
  }

  private static boolean pause(long millis) {
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private RobotsTxt definite(int status, byte[] body) {
    Instant now = clock.instant();
    return new RobotsTxt(status, body, now, now.plus(cacheTtl));
  }

  private RobotsTxt unreachable() {
    Instant now = clock.instant();
    return new RobotsTxt(0, new byte[0], now, now);
  }
}
