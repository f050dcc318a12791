package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig.Dns;
import org.forager.config.CrawlConfig.Dns.ResolverKind;
import org.forager.config.CrawlConfig.Network;
import org.forager.dns.IpLiterals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code network} section: pinned names ({@code resolve}), the DNS cache and TLS verification. */
class NetworkConfigTest {

  @TempDir Path dir;

  private Network load(String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    return ConfigLoader.load(Optional.of(file), Overrides.none()).network();
  }

  private static InetAddress ip(String literal) {
    return IpLiterals.parse(literal).orElseThrow();
  }

  @Test
  void defaultsRefusePrivateAddressesPinNothingAndVerifyTls() throws IOException {
    Network network = load("max_actions: 1\n");
    assertEquals(new Network(false, Map.of(), true), network);
    assertEquals(Network.defaults(), network);
  }

  @Test
  void earlyRequestsAreDecidedByTheCoresUnlessSetAlwaysOrNever() throws IOException {
    assertEquals(CrawlConfig.EarlyRequests.AUTO, load("max_actions: 1\n").earlyRequests());
    assertEquals(CrawlConfig.EarlyRequests.ALWAYS, load("network: { early_requests: always }\n").earlyRequests());
    assertEquals(CrawlConfig.EarlyRequests.NEVER, load("network: { early_requests: never }\n").earlyRequests());
    Network network = load("network: { early_requests: never }\n");
    assertEquals(network, Network.defaults().withEarlyRequests(CrawlConfig.EarlyRequests.NEVER));
  }

  /** The example of DESIGN.md, and the other forms: a list of addresses, names normalized as URLs are. */
  @Test
  void resolvePinsHostNamesToOneOrMoreAddresses() throws IOException {
    Network network = load("""
        network:
          allow_private_addresses: false
          resolve:
            "staging.example.org": "10.0.0.5"
            Mirror.Example.ORG: [ 192.0.2.7, "2001:db8::7", "[2001:db8::8]" ]
            bücher.example: "::ffff:10.0.0.9"
          tls: { verify: false }
        """);

    assertEquals(Map.of(
        "staging.example.org", List.of(ip("10.0.0.5")),
        "mirror.example.org", List.of(ip("192.0.2.7"), ip("2001:db8::7"), ip("2001:db8::8")),
        "xn--bcher-kva.example", List.of(ip("::ffff:10.0.0.9"))), network.resolve());
    // Kept as the IPv6 address it was written as, so the network policy judges what a socket would reach.
    assertInstanceOf(Inet6Address.class, network.resolve().get("xn--bcher-kva.example").get(0));
    assertFalse(network.allowPrivateAddresses());
    assertFalse(network.verifyTls());
  }

  @Test
  void tlsIsVerifiedUnlessSaidOtherwise() throws IOException {
    assertTrue(load("network: { tls: { verify: true } }").verifyTls());
    assertTrue(load("network: { tls: {} }").verifyTls());
  }

  @Test
  void dnsDefaultsToFiveMinutesOfCacheOneMinuteOfNegativeCacheAndFiveSecondsPerLookup() throws IOException {
    assertEquals(new Dns(Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofSeconds(5)),
        load("network: { dns: {} }").dns());
    assertEquals(Dns.defaults(), load("max_actions: 1\n").dns());
  }

  @Test
  void dnsDefaultsToDnsjavaWithTheSystemsServersAndTtlsKeptBetweenAMinuteAndAnHour() throws IOException {
    Dns dns = load("network: { dns: {} }").dns();
    assertEquals(ResolverKind.DNSJAVA, dns.resolver());
    assertEquals(List.of(), dns.servers());
    assertEquals(Duration.ofMinutes(1), dns.minTtl());
    assertEquals(Duration.ofHours(1), dns.maxTtl());
  }

  @Test
  void dnsResolverServersAndTtlBoundsAreRead() throws IOException {
    Dns dns = load("network: { dns: { resolver: dnsjava, servers: [10.0.0.53, \"127.0.0.1:5353\", \"2001:db8::53\","
        + " \"[::1]:5353\"], min_ttl: 30s, max_ttl: 6h } }").dns();
    assertEquals(List.of(new InetSocketAddress(ip("10.0.0.53"), 53), new InetSocketAddress(ip("127.0.0.1"), 5353),
        new InetSocketAddress(ip("2001:db8::53"), 53), new InetSocketAddress(ip("::1"), 5353)), dns.servers());
    assertEquals(Duration.ofSeconds(30), dns.minTtl());
    assertEquals(Duration.ofHours(6), dns.maxTtl());
    assertEquals(ResolverKind.SYSTEM, load("network: { dns: { resolver: system } }").dns().resolver());
  }

  @Test
  void dnsSettingsAreRead() throws IOException {
    Network network = load("network: { dns: { cache_ttl: 1h, negative_ttl: 30s, timeout: 1500ms } }");
    assertEquals(new Dns(Duration.ofHours(1), Duration.ofSeconds(30), Duration.ofMillis(1500)), network.dns());
    assertEquals(network, new Network(false, Map.of(), true).withDns(network.dns()));
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        arguments("network: { early_requests: sometimes }",
            "config: network.early_requests: must be auto, always or never, found \"sometimes\""),
        arguments("network: { dns: { cache_ttl: 0 } }", "config: network.dns.cache_ttl: must be > 0"),
        arguments("network: { dns: { negative_ttl: -1m } }",
            "config: network.dns.negative_ttl: \"-1m\" is negative; a duration must be ≥ 0"),
        arguments("network: { dns: { timeout: 5 } }",
            "config: network.dns.timeout: \"5\" has no unit (use ms, s, m, h, d or w)"),
        arguments("network: { dns: { ttl: 5m } }",
            "config: network.dns: unknown key 'ttl' (known keys: resolver, servers, min_ttl, max_ttl, cache_ttl,"
                + " negative_ttl, timeout)"),
        arguments("network: { dns: { resolver: bind } }",
            "config: network.dns.resolver: must be dnsjava or system, found \"bind\""),
        arguments("network: { dns: { resolver: system, servers: [10.0.0.53] } }",
            "config: network.dns.servers: needs resolver: dnsjava (the system resolver asks the servers of"
                + " /etc/resolv.conf)"),
        arguments("network: { dns: { servers: [ns1.example.org] } }",
            "config: network.dns.servers[0]: \"ns1.example.org\" is not a name server address (write it like"
                + " 10.0.0.53, 10.0.0.53:5353 or [2001:db8::53]:5353)"),
        arguments("network: { dns: { servers: [\"10.0.0.53:70000\"] } }",
            "config: network.dns.servers[0]: \"10.0.0.53:70000\" has no valid port (1 to 65535)"),
        arguments("network: { dns: { servers: 10.0.0.53 } }",
            "config: network.dns.servers: must be a list, found \"10.0.0.53\""),
        arguments("network: { dns: { min_ttl: 2h, max_ttl: 1h } }",
            "config: network.dns.min_ttl: 2h is more than network.dns.max_ttl (1h)"),
        arguments("network: { dns: 5s }", "config: network.dns: must be a map (key: value), found \"5s\""),
        arguments("network: { resolve: { staging.example.org: 10.0.0.x } }",
            "config: network.resolve[\"staging.example.org\"]: \"10.0.0.x\" is not an IP address"
                + " (write it like 10.0.0.5 or 2001:db8::5)"),
        arguments("network: { resolve: { staging.example.org: staging.internal } }",
            "config: network.resolve[\"staging.example.org\"]: \"staging.internal\" is not an IP address"
                + " (write it like 10.0.0.5 or 2001:db8::5)"),
        arguments("network: { resolve: { a.example: 010.0.0.5 } }",
            "config: network.resolve[\"a.example\"]: \"010.0.0.5\" is not an IP address"
                + " (write it like 10.0.0.5 or 2001:db8::5)"),
        arguments("network: { resolve: { a.example: [ 10.0.0.5, \"fe80::1%eth0\" ] } }",
            "config: network.resolve[\"a.example\"][1]: \"fe80::1%eth0\" is not an IP address"
                + " (write it like 10.0.0.5 or 2001:db8::5)"),
        arguments("network: { resolve: { a.example: [] } }",
            "config: network.resolve[\"a.example\"]: must name at least one address"),
        arguments("network: { resolve: { a.example: ~ } }", "config: network.resolve[\"a.example\"]: has no address"),
        arguments("network: { resolve: { a.example: { ip: 10.0.0.5 } } }",
            "config: network.resolve[\"a.example\"]: must be a string, found a map"),
        arguments("network: { resolve: { \"https://a.example/\": 10.0.0.5 } }",
            "config: network.resolve[\"https://a.example/\"]: is not a host name (write the name alone, without"
                + " scheme, port or path, like staging.example.org)"),
        arguments("network: { resolve: { \"a.example:8080\": 10.0.0.5 } }",
            "config: network.resolve[\"a.example:8080\"]: is not a host name (write the name alone, without"
                + " scheme, port or path, like staging.example.org)"),
        arguments("network: { resolve: { \"user@a.example\": 10.0.0.5 } }",
            "config: network.resolve[\"user@a.example\"]: is not a host name (write the name alone, without"
                + " scheme, port or path, like staging.example.org)"),
        arguments("network: { resolve: { \"10.0.0.1\": 10.0.0.5 } }",
            "config: network.resolve[\"10.0.0.1\"]: is an IP address (10.0.0.1): only host names are resolved"),
        arguments("network: { resolve: { \"2130706433\": 10.0.0.5 } }",
            "config: network.resolve[\"2130706433\"]: is an IP address (127.0.0.1): only host names are resolved"),
        arguments("network: { resolve: { A.example: 10.0.0.5, a.EXAMPLE: 10.0.0.6 } }",
            "config: network.resolve[\"a.EXAMPLE\"]: names the host a.example a second time"),
        arguments("network: { resolve: [ \"a.example=10.0.0.5\" ] }",
            "config: network.resolve: must be a map of host names to addresses, like"
                + " { \"staging.example.org\": \"10.0.0.5\" }, found a list"),
        arguments("network: { tls: { verify: maybe } }", "config: network.tls.verify: \"maybe\" is not true or false"),
        arguments("network: { tls: insecure }", "config: network.tls: must be a map (key: value), found \"insecure\""),
        arguments("network: { tls: { verfy: false } }",
            "config: network.tls: unknown key 'verfy' (did you mean 'verify'?)"),
        arguments("network: { resolv: {} }", "config: network: unknown key 'resolv' (did you mean 'resolve'?)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource
  void mistakes(String yaml, String message) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), Overrides.none()));
    assertEquals(message, e.getMessage());
  }
}
