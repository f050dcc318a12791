package org.forager.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRulesMode;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.forager.store.OriginState.RobotsTxt;

/**
 * The rules of one origin's robots.txt for our product token. Immutable and thread-safe.
 *
 * <p>What a fetch outcome means follows RFC 9309 section 2.3.1: a 2xx body is parsed whatever its
 * media type; 4xx means "unavailable", so everything is allowed; 5xx or no answer at all means
 * "unreachable", so nothing is allowed until a later fetch succeeds. 429 is treated as unreachable
 * rather than unavailable: it asks us to slow down, not to crawl freely (Google does the same).
 */
public final class RobotsRules {

  /** RFC 9309 section 2.5: crawlers must parse at least 500 KiB; we parse exactly that much. */
  public static final int MAX_PARSED_BYTES = 500 * 1024;

  private static final int MAX_WARNINGS = 5;

  private final BaseRobotRules rules;
  private final boolean reachable;
  private final List<String> sitemaps;

  private RobotsRules(BaseRobotRules rules, boolean reachable, List<String> sitemaps) {
    this.rules = rules;
    this.reachable = reachable;
    this.sitemaps = List.copyOf(sitemaps);
  }

  /** Rules from a stored robots.txt fetch, for the given product token (e.g. "ForagerBot"). */
  public static RobotsRules of(RobotsTxt robotsTxt, String robotsUrl, String productToken) {
    int status = robotsTxt.status();
    if (status >= 200 && status < 300) {
      byte[] read = robotsTxt.body();
      if (read.length > MAX_PARSED_BYTES) read = Arrays.copyOf(read, MAX_PARSED_BYTES);
      byte[] body = LiteralDollars.escaped(HugeCrawlDelays.capped(read));
      // No crawl-delay ceiling in the parser (it would disallow everything past it);
      // politeness.max_delay caps the delay instead.
      SimpleRobotRulesParser parser = new SimpleRobotRulesParser(Long.MAX_VALUE, MAX_WARNINGS);
      // The media type is ignored on purpose: RFC 9309 asks to parse whatever came back.
      BaseRobotRules parsed = parser.parseContent(
          robotsUrl, body, "text/plain", List.of(productToken.toLowerCase(Locale.ROOT)));
      return new RobotsRules(parsed, true, SitemapLines.of(read));
    }
    if (status >= 400 && status < 500 && status != 429) {
      return new RobotsRules(new SimpleRobotRules(RobotRulesMode.ALLOW_ALL), true, List.of());
    }
    return new RobotsRules(new SimpleRobotRules(RobotRulesMode.ALLOW_NONE), false, List.of());
  }

  /** Whether the URL (normalized, of this origin) may be fetched. */
  public boolean isAllowed(String url) {
    URL pathOnly = pathOnly(url);
    return pathOnly != null ? rules.isAllowed(pathOnly) : rules.isAllowed(url);
  }

  /**
   * The URL's path and query on a placeholder host, for the rules to match: they percent-encode it as
   * they encode their own paths (RFC 9309 section 2.2.2), so {@code Disallow: /a|b} matches
   * {@code /a|b}. Null for a URL that is not http(s): the rules then parse it themselves. Their own
   * parse goes through {@code java.net.URI}, which refuses chars the URL parser keeps ({@code |},
   * {@code ^}, <code>{}</code>, a lone {@code %}) and then matched such a URL as "/", as if its path
   * were the root: {@code Disallow: /a|b} let {@code /a|b} through. It was also nine tenths of a match
   * (issue 15: about 3 µs, 300,000 matches a crawl of the benchmark).
   */
  @SuppressWarnings("deprecation") // URL's constructors: the one way to make a URL without parsing one
  static URL pathOnly(String url) {
    int authority = url.startsWith("http://") ? 7 : url.startsWith("https://") ? 8 : -1;
    if (authority < 0) return null;
    int path = authority;
    while (path < url.length() && "/?#".indexOf(url.charAt(path)) < 0) path++;
    try {
      return new URL("http", "robots.invalid", -1, url.substring(path));
    } catch (MalformedURLException e) {
      return null;
    }
  }

  /**
   * False when the server was unreachable or answered 5xx or 429: the origin must not be crawled
   * until robots.txt is fetched successfully.
   */
  public boolean isReachable() {
    return reachable;
  }

  /** The Crawl-delay of the group that applies to us, when it sets one. */
  public Optional<Duration> crawlDelay() {
    long delay = rules.getCrawlDelay();
    return delay == BaseRobotRules.UNSET_CRAWL_DELAY || delay < 0
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(delay));
  }

  /** Sitemap URLs listed in the file, as written ({@link SitemapLines}: not through crawler-commons). */
  public List<String> sitemaps() {
    return sitemaps;
  }
}
