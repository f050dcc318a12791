package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.dns.Resolver;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request naming an address ({@link FetchRequest#address()}, the one its per-IP politeness slot was
 * taken for) connects to that address, whatever the resolver would answer now, and the network policy
 * still judges it at connect.
 */
@Timeout(30)
class PinnedAddressFetchTest {

  private static HttpFetcher.Options options(boolean allowPrivate, Resolver resolver) {
    return new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(2), 100, allowPrivate, 4)
        .withResolver(resolver);
  }

  @Test
  void thePinnedAddressIsConnectedToNotWhatTheResolverAnswersAndTheHostIsStillSent() throws Exception {
    AtomicInteger lookups = new AtomicInteger();
    // 127.0.0.2 is loopback too, but the site listens on 127.0.0.1 only: connecting there is refused.
    Resolver elsewhere = host -> {
      lookups.incrementAndGet();
      return List.of(InetAddress.getByName("127.0.0.2"));
    };
    try (TestSite site = TestSite.start(); HttpFetcher fetcher = new HttpFetcher(options(true, elsewhere))) {
      // The Host header is noted before the answer goes out: the site's own request log is written after
      // it, and may not have it yet when the fetch returns.
      java.util.concurrent.atomic.AtomicReference<String> host = new java.util.concurrent.atomic.AtomicReference<>();
      site.route("/", ex -> {
        host.set(ex.getRequestHeaders().getFirst("Host"));
        TestSite.respond(ex, 200, "text/html", "<p>here</p>");
      });
      String url = site.url("pinned.test", "/");

      assertInstanceOf(FetchResult.Failure.class, fetcher.fetch(FetchRequest.of(url)), "unpinned: the resolver's answer");
      FetchResult.Response response = assertInstanceOf(FetchResult.Response.class,
          fetcher.fetch(FetchRequest.of(url).connectingTo(Optional.of(InetAddress.getByName("127.0.0.1")))));

      assertEquals(200, response.status());
      assertEquals(Optional.of("127.0.0.1"), response.remoteAddress());
      assertEquals("pinned.test:" + site.port(), host.get());
      assertEquals(1, lookups.get(), "the pinned fetch asked no resolver");
      assertEquals(Optional.of(InetAddress.getByName("127.0.0.2")),
          AddressPicker.of(options(true, elsewhere)).pick("pinned.test", 80), "the picker answers what a fetch would use");
    }
  }

  /**
   * A refused connect is told apart from a failure after the connect (here the server closing without
   * an answer), and the picker then passes the refusing address over for the host's next one.
   */
  @Test
  void anAddressThatTookNoConnectionIsToldAndPassedOverForTheHostsNextOne() throws Exception {
    Resolver two = host -> List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.1"));
    try (TestSite site = TestSite.start(); HttpFetcher fetcher = new HttpFetcher(options(true, two))) {
      site.html("/", "<p>here</p>");
      site.route("/hangup", ex -> ex.close());
      String url = site.url("two.test", "/");
      AddressPicker picker = AddressPicker.of(options(true, two));
      InetAddress first = picker.pick("two.test", site.port()).orElseThrow();
      assertEquals(InetAddress.getByName("127.0.0.2"), first, "the answer's order");

      FetchResult.Failure refused = assertInstanceOf(FetchResult.Failure.class,
          fetcher.fetch(FetchRequest.of(url).connectingTo(Optional.of(first))));
      assertEquals(true, refused.unconnected(), refused.message());
      picker.unreachable(first, site.port());
      InetAddress next = picker.pick("two.test", site.port()).orElseThrow();
      assertEquals(InetAddress.getByName("127.0.0.1"), next);
      assertInstanceOf(FetchResult.Response.class, fetcher.fetch(FetchRequest.of(url).connectingTo(Optional.of(next))));

      FetchResult.Failure hungUp = assertInstanceOf(FetchResult.Failure.class,
          fetcher.fetch(FetchRequest.of(site.url("two.test", "/hangup")).connectingTo(Optional.of(next))));
      assertEquals(false, hungUp.unconnected(), "connected, then closed: " + hungUp.message());
      picker.unreachable(next, site.port());
      assertEquals(first, picker.pick("two.test", site.port()).orElseThrow(), "both passed over: the answer's first");
    }
  }

  @Test
  void aPinnedAddressTheNetworkPolicyRefusesIsNotConnectedTo() throws Exception {
    Resolver any = host -> List.of(InetAddress.getByName("192.0.2.1"));
    try (TestSite site = TestSite.start(); HttpFetcher fetcher = new HttpFetcher(options(false, any))) {
      site.html("/", "<p>here</p>");
      FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, fetcher.fetch(
          FetchRequest.of(site.url("pinned.test", "/")).connectingTo(Optional.of(InetAddress.getByName("127.0.0.1")))));

      assertEquals(FetchResult.FailureKind.BLOCKED_BY_NETWORK_POLICY, failure.kind(), failure.message());
      assertEquals(List.of(), site.requests());
      assertEquals(Optional.empty(), AddressPicker.of(options(false, host -> List.of(InetAddress.getByName("127.0.0.1"))))
          .pick("pinned.test", 80), "the picker offers no address the policy refuses");
    }
  }
}
