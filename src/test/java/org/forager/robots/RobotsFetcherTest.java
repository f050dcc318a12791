package org.forager.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.Fetcher;
import org.forager.fetch.Header;
import org.forager.fetch.Outcome;
import org.forager.policy.RequestGate;
import org.forager.policy.Verdict;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

/**
 * The redirect chain of robots.txt against answers no loopback server can give with the network
 * policy on (every loopback address is refused then): a scripted fetcher plays the answers. The
 * crawl-level tests with real servers are in {@code ExclusionCrawlTest} and {@code HostileRobotsTest}.
 */
class RobotsFetcherTest {

  private static final Origin ORIGIN = Origin.ofUrl("https://example.org/");

  /** Answers each URL as scripted and remembers what was asked. */
  private static final class Script implements Fetcher {
    final Map<String, FetchResult> answers;
    final List<String> asked = new ArrayList<>();

    Script(Map<String, FetchResult> answers) {
      this.answers = answers;
    }

    @Override
    public FetchResult fetch(FetchRequest request) {
      asked.add(request.url());
      return answers.get(request.url());
    }

    @Override
    public void close() {}
  }

  private static FetchResult redirect(String from, String to) {
    return new FetchResult.Response(from, Instant.now(), 1, new byte[0], Optional.empty(), "HTTP/1.1", 302, "",
        List.of(new Header("Location", to)), new byte[0], new byte[0], Optional.empty());
  }

  /** The name rebound between two hops to an address the network policy refuses. */
  @Test
  void aRedirectToAnAddressTheNetworkPolicyRefusesMakesTheFileUnavailable() {
    Script fetcher = new Script(Map.of(
        "https://example.org/robots.txt", redirect("https://example.org/robots.txt", "https://example.org/moved"),
        "https://example.org/moved", new FetchResult.Failure("https://example.org/moved", Instant.now(), 1,
            FailureKind.BLOCKED_BY_NETWORK_POLICY, "refused address 169.254.169.254")));
    RobotsFetcher robots = new RobotsFetcher(fetcher, Duration.ofMinutes(30), Clock.systemUTC(), RequestGate.OPEN);

    RobotsFetcher.Result result = robots.fetch(ORIGIN);
    assertEquals(404, result.robotsTxt().status(), "unavailable: allow all, as past the redirect limit");
    assertTrue(RobotsRules.of(result.robotsTxt(), ORIGIN.robotsTxtUrl(), "ForagerBot").isAllowed("https://example.org/a"));
  }

  /**
   * A hop to another origin would be a request outside that origin's turns (its delay, its one in
   * flight): not requested. To that origin's robots.txt, the result names the origin whose rules these
   * are; to any other URL of it, the file is unavailable.
   */
  @Test
  void aRedirectToAnotherOriginIsNotRequestedAndNamesThatOriginWhenItIsItsRobotsTxt() {
    Script fetcher = new Script(Map.of(
        "https://example.org/robots.txt", redirect("https://example.org/robots.txt", "https://www.example.org/robots.txt")));
    RobotsFetcher.Result result = new RobotsFetcher(fetcher, Duration.ofMinutes(30), Clock.systemUTC(), RequestGate.OPEN)
        .fetch(ORIGIN);
    assertEquals(List.of("https://example.org/robots.txt"), fetcher.asked);
    assertEquals(Optional.of(Origin.ofUrl("https://www.example.org/")), result.rulesOf());
    assertTrue(result.refused().isEmpty());

    Script elsewhere = new Script(Map.of(
        "https://example.org/robots.txt", redirect("https://example.org/robots.txt", "https://www.example.org/rules.txt")));
    RobotsFetcher.Result other = new RobotsFetcher(elsewhere, Duration.ofMinutes(30), Clock.systemUTC(), RequestGate.OPEN)
        .fetch(ORIGIN);
    assertEquals(List.of("https://example.org/robots.txt"), elsewhere.asked);
    assertEquals("https://www.example.org/rules.txt", other.refused().orElseThrow().url());
    assertTrue(other.rulesOf().isEmpty());
    assertEquals(404, other.robotsTxt().status());
  }

  @Test
  void aHopTheGateRefusesIsNotRequested() {
    Script fetcher = new Script(Map.of(
        "https://example.org/robots.txt", redirect("https://example.org/robots.txt", "https://ads.example.net/robots.txt")));
    RequestGate gate = url -> url.contains("ads.example.net")
        ? new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, "do_not_crawl host ads.example.net")
        : Verdict.ALLOWED;
    RobotsFetcher.Result result = new RobotsFetcher(fetcher, Duration.ofMinutes(30), Clock.systemUTC(), gate)
        .fetch(ORIGIN);

    assertEquals(List.of("https://example.org/robots.txt"), fetcher.asked);
    assertEquals("https://ads.example.net/robots.txt", result.refused().orElseThrow().url());
    assertEquals(404, result.robotsTxt().status());
  }
}
