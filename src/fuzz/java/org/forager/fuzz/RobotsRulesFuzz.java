package org.forager.fuzz;

import static org.forager.fuzz.UrlProperties.check;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.forager.robots.RobotsRules;
import org.forager.store.OriginState.RobotsTxt;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * {@link RobotsRules#of} on any status and body, then {@code isAllowed} on URLs of the origin: never an
 * exception, a Crawl-delay never negative, and the status rules of RFC 9309 section 2.3.1 whatever the
 * body (4xx allows all, 5xx and 429 allow nothing).
 */
class RobotsRulesFuzz {

  /** A huge robots.txt goes past the 500 KiB that are parsed. */
  private static final int MAX_HUGE = 600 * 1024;

  /** How many URLs of the origin each input asks about. */
  private static final int URLS_PER_INPUT = 8;

  private static final int[] STATUSES = {200, 200, 200, 200, 204, 299, 301, 404, 410, 429, 500, 503, 0, 999};
  private static final List<String> TOKENS = List.of("ForagerBot", "foragerbot", "Forager-Bot", "Googlebot");
  private static final List<Origin> ORIGINS = List.of(
      "https://example.org", "http://example.org:8080", "http://[::1]", "http://127.0.0.1",
      "https://xn--bcher-kva.example").stream().map(Origin::ofUrl).toList();

  @FuzzTest
  void rules(FuzzedDataProvider data) {
    int status = data.pickValue(STATUSES);
    String token = data.pickValue(TOKENS);
    Origin origin = data.pickValue(ORIGINS);
    String text = Soup.text(data, Vocabulary.ROBOTS, MAX_HUGE);
    byte[] body = data.consumeInt(0, 7) == 7
        ? text.getBytes(StandardCharsets.UTF_16LE)
        : text.getBytes(StandardCharsets.UTF_8);
    RobotsRules rules = RobotsRules.of(new RobotsTxt(status, body, Instant.EPOCH, Instant.EPOCH),
        origin.robotsTxtUrl(), token);
    Supplier<String> context = () -> "status " + status + ", token " + token + ", robots.txt " + Show.text(text);

    rules.crawlDelay().ifPresent(delay -> check(!delay.isNegative(), "negative Crawl-delay " + delay, "", context));
    check(rules.sitemaps().stream().allMatch(s -> s != null), "a null sitemap", "", context);
    boolean unavailable = status >= 400 && status < 500 && status != 429;
    boolean parsed = status >= 200 && status < 300;
    check(rules.isReachable() == (parsed || unavailable), "reachable is " + rules.isReachable(), "", context);
    for (int i = 0; i < URLS_PER_INPUT && data.remainingBytes() > 0; i++) {
      Optional<String> url = UrlNormalizer.resolve(origin + "/", Soup.tokens(data, Vocabulary.URL, 12));
      if (url.isEmpty() || !origin.contains(url.get())) continue;
      boolean allowed = rules.isAllowed(url.get());
      if (!parsed) check(allowed == unavailable, "allowed is " + allowed, url.get(), context);
    }
  }
}
