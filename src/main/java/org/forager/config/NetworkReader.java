package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig.Dns;
import org.forager.config.CrawlConfig.Dns.ResolverKind;
import org.forager.config.CrawlConfig.EarlyRequests;
import org.forager.config.CrawlConfig.Network;
import org.forager.dns.IpLiterals;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * Reads the {@code network} section: {@code allow_private_addresses}, the {@code resolve} map of pinned
 * host names (curl's {@code --resolve}), the {@code dns} resolver, cache and deadline and {@code tls.verify}.
 * Stateless.
 */
final class NetworkReader {

  static final List<String> KEYS = List.of("allow_private_addresses", "resolve", "dns", "tls", "early_requests");
  static final List<String> TLS_KEYS = List.of("verify");
  static final List<String> DNS_KEYS =
      List.of("resolver", "servers", "min_ttl", "max_ttl", "cache_ttl", "negative_ttl", "timeout");

  /** An IPv4 address or a bracketed IPv6 one, then a port: {@code 10.0.0.53:5353}, {@code [::1]:5353}. */
  private static final Pattern SERVER_WITH_PORT = Pattern.compile("((?:\\d+\\.){3}\\d+|\\[[^\\]]*\\]):(\\d+)");

  private NetworkReader() {}

  static Network read(Section section) {
    Network defaults = Network.defaults();
    return new Network(
        section.get("allow_private_addresses", Values::bool).orElse(defaults.allowPrivateAddresses()),
        section.get("resolve", NetworkReader::pins).orElse(defaults.resolve()),
        section.section("tls", TLS_KEYS).get("verify", Values::bool).orElse(defaults.verifyTls()),
        dns(section.section("dns", DNS_KEYS)),
        section.get("early_requests", NetworkReader::earlyRequests).orElse(defaults.earlyRequests()));
  }

  private static EarlyRequests earlyRequests(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    return switch (text) {
      case "auto" -> EarlyRequests.AUTO;
      case "always" -> EarlyRequests.ALWAYS;
      case "never" -> EarlyRequests.NEVER;
      default -> throw ConfigException.at(path, "must be auto, always or never, found " + ConfigException.quote(text));
    };
  }

  private static Dns dns(Section section) {
    Dns defaults = Dns.defaults();
    ResolverKind resolver = section.get("resolver", NetworkReader::resolverKind).orElse(defaults.resolver());
    List<InetSocketAddress> servers = section.get("servers", (path, node) -> Values.list(path, node,
        NetworkReader::server)).orElse(defaults.servers());
    if (resolver == ResolverKind.SYSTEM && !servers.isEmpty()) {
      throw ConfigException.at(section.pathOf("servers"), "needs resolver: dnsjava (the system resolver asks"
          + " the servers of /etc/resolv.conf)");
    }
    Duration minTtl = section.get("min_ttl", Values::positiveDuration).orElse(defaults.minTtl());
    Duration maxTtl = section.get("max_ttl", Values::positiveDuration).orElse(defaults.maxTtl());
    if (minTtl.compareTo(maxTtl) > 0) {
      throw ConfigException.at(section.pathOf("min_ttl"), Durations.format(minTtl) + " is more than "
          + section.pathOf("max_ttl") + " (" + Durations.format(maxTtl) + ")");
    }
    return new Dns(resolver, servers, minTtl, maxTtl,
        section.get("cache_ttl", Values::positiveDuration).orElse(defaults.cacheTtl()),
        section.get("negative_ttl", Values::positiveDuration).orElse(defaults.negativeTtl()),
        section.get("timeout", Values::positiveDuration).orElse(defaults.timeout()));
  }

  private static ResolverKind resolverKind(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    return switch (text) {
      case "dnsjava" -> ResolverKind.DNSJAVA;
      case "system" -> ResolverKind.SYSTEM;
      default -> throw ConfigException.at(path, "must be dnsjava or system, found " + ConfigException.quote(text));
    };
  }

  /** A name server: {@code 10.0.0.53}, {@code 10.0.0.53:5353}, {@code 2001:db8::53} or {@code [2001:db8::53]:5353}. */
  private static InetSocketAddress server(String path, JsonNode node) {
    String text = Values.nonBlank(path, node).strip();
    Matcher withPort = SERVER_WITH_PORT.matcher(text);
    String address = withPort.matches() ? withPort.group(1) : text;
    int port = withPort.matches() ? port(path, text, withPort.group(2)) : 53;
    InetAddress ip = IpLiterals.parse(address).orElseThrow(() -> ConfigException.at(path,
        ConfigException.quote(text) + " is not a name server address (write it like 10.0.0.53, 10.0.0.53:5353"
            + " or [2001:db8::53]:5353)"));
    return new InetSocketAddress(ip, port);
  }

  private static int port(String path, String text, String digits) {
    int port = digits.length() > 5 ? 0 : Integer.parseInt(digits);
    if (port < 1 || port > 65_535) {
      throw ConfigException.at(path, ConfigException.quote(text) + " has no valid port (1 to 65535)");
    }
    return port;
  }

  /** {@code { host: address }} or {@code { host: [address, ...] }}. */
  private static Map<String, List<InetAddress>> pins(String path, JsonNode node) {
    if (!node.isObject()) {
      throw ConfigException.at(path, "must be a map of host names to addresses, like"
          + " { \"staging.example.org\": \"10.0.0.5\" }, found " + Values.describe(node));
    }
    Map<String, List<InetAddress>> pins = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String keyPath = path + "[" + ConfigException.quote(field.getKey()) + "]";
      String host = hostName(keyPath, field.getKey());
      if (pins.containsKey(host)) {
        throw ConfigException.at(keyPath, "names the host " + host + " a second time");
      }
      JsonNode value = field.getValue();
      if (value.isNull()) throw ConfigException.at(keyPath, "has no address");
      List<InetAddress> addresses = value.isArray()
          ? Values.list(keyPath, value, NetworkReader::address)
          : List.of(address(keyPath, value));
      if (addresses.isEmpty()) throw ConfigException.at(keyPath, "must name at least one address");
      pins.put(host, addresses);
    }
    return pins;
  }

  /** The host as normalized URLs spell it (lower case, IDNA), so that it matches what is fetched. */
  private static String hostName(String path, String key) {
    String text = key.strip();
    boolean plain = !text.isEmpty()
        && text.chars().noneMatch(c -> "/\\@:?#[]".indexOf(c) >= 0 || Character.isWhitespace(c));
    Optional<String> url = plain ? UrlNormalizer.normalize("http://" + text + "/") : Optional.empty();
    if (url.isEmpty()) {
      throw ConfigException.at(path, "is not a host name (write the name alone, without scheme, port or path,"
          + " like staging.example.org)");
    }
    String host = Origin.ofUrl(url.get()).host();
    if (IpLiterals.parse(host).isPresent()) {
      throw ConfigException.at(path, "is an IP address (" + host + "): only host names are resolved");
    }
    return host;
  }

  private static InetAddress address(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    return IpLiterals.parse(text).orElseThrow(() -> ConfigException.at(path, ConfigException.quote(text)
        + " is not an IP address (write it like 10.0.0.5 or 2001:db8::5)"));
  }
}
