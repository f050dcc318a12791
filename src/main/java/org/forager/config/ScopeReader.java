package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.dns.IpLiterals;
import org.forager.url.UrlNormalizer;

/**
 * Reads the {@code scope} section: {@code mode}, the {@code allow} and {@code deny} lists of domains
 * and suffixes, {@code max_origins}, {@code max_hops}, {@code max_origins_per_domain} (docs/scope.md). Entries come out as normalized hosts, a leading
 * dot kept to mark a suffix. Stateless.
 */
final class ScopeReader {

  static final List<String> KEYS = List.of("mode", "allow", "deny", "max_origins", "max_hops",
      "max_origins_per_domain");
  private static final String HOW_TO_WRITE =
      "write a domain alone, like example.org (it covers its subdomains), or .de for every host under .de";

  private ScopeReader() {}

  static ScopeConfig read(Section section) {
    ScopeConfig defaults = ScopeConfig.defaults();
    Mode mode = section.get("mode", ScopeReader::mode).orElse(defaults.mode());
    List<String> allow = section.get("allow", ScopeReader::entries).orElse(defaults.allow());
    List<String> deny = section.get("deny", ScopeReader::entries).orElse(defaults.deny());
    long maxOrigins = section.get("max_origins", (path, node) -> Values.wholeNumber(path, node, 1, Long.MAX_VALUE))
        .orElse(defaults.maxOrigins());
    int maxHops = section.get("max_hops", (path, node) -> (int) Values.wholeNumber(path, node, 0, ScopeConfig.MAX_HOPS))
        .orElse(0);
    long maxPerDomain = section.get("max_origins_per_domain",
        (path, node) -> Values.wholeNumber(path, node, 1, Long.MAX_VALUE)).orElse(defaults.maxOriginsPerDomain());
    if (!allow.isEmpty() && mode != Mode.OPEN) {
      throw ConfigException.at(section.pathOf("allow"), "only used when scope.mode is open (in " + mode.key()
          + " mode the seeds make the scope: add a seed to widen it, or use scope.deny to narrow it)");
    }
    if (maxHops > 0 && mode != Mode.DOMAINS) {
      throw ConfigException.at(section.pathOf("max_hops"), "only used when scope.mode is domains (how many links"
          + " a crawl may follow outside the seeds' domains; " + (mode == Mode.OPEN ? "an open crawl has no such bound)"
          : "an origins crawl stays on the seeds' origins: use scope.mode: domains)"));
    }
    return new ScopeConfig(mode, allow, deny, maxOrigins, maxHops, maxPerDomain);
  }


  private static Mode mode(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    for (Mode mode : Mode.values()) {
      if (mode.key().equals(text)) return mode;
    }
    throw ConfigException.at(path, ConfigException.quote(text) + " is not a scope mode (use origins, domains or open)");
  }

  private static List<String> entries(String path, JsonNode node) {
    return Values.list(path, node, ScopeReader::entry);
  }

  /** {@code example.org} or {@code .de}, normalized: lower case, IDN to ASCII, no trailing dot. */
  static String entry(String path, JsonNode node) {
    String text = Values.nonBlank(path, node).strip();
    String quoted = ConfigException.quote(text);
    if (text.contains("://")) throw ConfigException.at(path, quoted + " has a scheme: " + HOW_TO_WRITE);
    if (text.indexOf('*') >= 0) {
      throw ConfigException.at(path, quoted + " has a wildcard: " + HOW_TO_WRITE);
    }
    boolean suffix = text.startsWith(".");
    String name = suffix ? text.substring(1) : text;
    if (name.chars().anyMatch(c -> c == '/' || c == '?' || c == '#')) {
      throw ConfigException.at(path, quoted + " has a path: " + HOW_TO_WRITE);
    }
    int colons = (int) name.chars().filter(c -> c == ':').count();
    if (colons >= 2 && !name.startsWith("[")) {
      throw ConfigException.at(path, quoted + " is an IPv6 address without brackets: write it like [2001:db8::1]");
    }
    if (name.lastIndexOf(':') > name.lastIndexOf(']')) {
      throw ConfigException.at(path, quoted + " has a port: an entry covers every port; " + HOW_TO_WRITE);
    }
    Optional<String> host = name.isEmpty() || name.startsWith(".") ? Optional.empty() : UrlNormalizer.host(name);
    if (host.isEmpty()) throw ConfigException.at(path, quoted + " is not a domain: " + HOW_TO_WRITE);
    String normalized = host.get();
    if (suffix && IpLiterals.parse(normalized).isPresent()) {
      throw ConfigException.at(path, quoted + " is an IP address, which has no subdomains: write it without the"
          + " leading dot");
    }
    return suffix ? "." + normalized : normalized;
  }
}
