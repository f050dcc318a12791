package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.forager.config.CrawlConfig.DoNotCrawlRule;
import org.forager.config.CrawlConfig.QueryParameterRule;
import org.forager.url.UrlNormalizer;

/**
 * Reads the items of the URL rule lists: {@code skip_extensions}, {@code do_not_crawl} and {@code
 * url_query_parameters}, checking each as far as it can be checked without a URL (a regex compiles, a
 * prefix can match a normalized URL at all). Stateless.
 */
final class RuleReader {

  static final List<String> DO_NOT_CRAWL_KEYS = List.of("host", "domain", "prefix", "regex");
  static final List<String> QUERY_PARAMETER_KEYS = List.of("prefix", "allow");

  private RuleReader() {}

  /** An extension such as {@code .pdf}, lower-cased: URLs match it whatever their case. */
  static String extension(String path, JsonNode node) {
    String extension = Values.nonBlank(path, node);
    if (!extension.startsWith(".") || extension.length() < 2) {
      throw ConfigException.at(path, ConfigException.quote(extension) + " must be a dot and a name, like \".pdf\"");
    }
    if (extension.chars().anyMatch(c -> c == '/' || c == '?' || c == '#' || Character.isWhitespace(c))) {
      throw ConfigException.at(path, ConfigException.quote(extension) + " is not a file name extension");
    }
    return extension.toLowerCase(Locale.ROOT);
  }

  static DoNotCrawlRule doNotCrawl(String path, JsonNode node) {
    Section rule = Section.of(path, node, DO_NOT_CRAWL_KEYS);
    if (DO_NOT_CRAWL_KEYS.stream().filter(rule::has).count() != 1) {
      throw ConfigException.at(path, "needs exactly one of host, domain, prefix, regex");
    }
    String regex = rule.get("regex", RuleReader::regex).orElse(null);
    if (regex != null) checkCompiles(path, regex);
    // The record marks the unused kinds with null (see DoNotCrawlRule).
    return new DoNotCrawlRule(
        rule.get("host", RuleReader::host).orElse(null),
        rule.get("domain", RuleReader::host).orElse(null),
        rule.get("prefix", RuleReader::urlPrefix).orElse(null),
        regex);
  }

  static QueryParameterRule queryParameters(String path, JsonNode node) {
    Section rule = Section.of(path, node, QUERY_PARAMETER_KEYS);
    String prefix = rule.get("prefix", RuleReader::urlPrefix)
        .orElseThrow(() -> ConfigException.at(rule.pathOf("prefix"), "required"));
    if (prefix.contains("?")) {
      throw ConfigException.at(rule.pathOf("prefix"), ConfigException.quote(prefix)
          + " must not contain '?': it is matched against the URL without its query");
    }
    List<String> allow = rule.get("allow", (allowPath, list) -> Values.list(allowPath, list, Values::nonBlank))
        .orElseThrow(() -> ConfigException.at(rule.pathOf("allow"), "required (a list of parameter names, may be empty)"));
    return new QueryParameterRule(prefix, allow);
  }

  /**
   * A host or domain name in the form normalized URLs carry (lower case, IDN to ASCII, no trailing
   * dot), so that {@code Bücher.example} or {@code EXAMPLE.org.} match the URLs they name.
   */
  static String host(String path, JsonNode node) {
    String host = Values.nonBlank(path, node);
    boolean ipv6 = host.startsWith("[");
    if (host.chars().anyMatch(c -> c == '/' || c == '@' || (c == ':' && !ipv6) || Character.isWhitespace(c))) {
      throw ConfigException.at(path, ConfigException.quote(host)
          + " is not a host name (write it without scheme, port or path, like \"ads.example.org\")");
    }
    if (host.indexOf('*') >= 0) {
      // A '*' is a character of a host name to the URL parser: the rule would match no site at all.
      throw ConfigException.at(path, ConfigException.quote(host)
          + " has a wildcard: write the domain alone, like {domain: \"example.org\"}, which covers every host under it");
    }
    return UrlNormalizer.host(host).orElseThrow(() -> ConfigException.at(path,
        ConfigException.quote(host) + " is not a valid host name"));
  }

  /**
   * A prefix of normalized URLs, normalized itself ({@code %7E} as {@code ~}, the host in lower case
   * and ASCII, {@code https://example.org} as {@code https://example.org/}): a prefix spelled
   * otherwise could never match.
   */
  private static String urlPrefix(String path, JsonNode node) {
    String prefix = Values.nonBlank(path, node);
    // The scheme alone: every URL of it (a url_query_parameters rule for all sites, or no plain http).
    if (prefix.strip().equals("http://") || prefix.strip().equals("https://")) return prefix.strip();
    if (!prefix.startsWith("http://") && !prefix.startsWith("https://")) {
      throw ConfigException.at(path, ConfigException.quote(prefix) + " must start with http:// or https://");
    }
    if (prefix.indexOf('#') >= 0) {
      throw ConfigException.at(path, ConfigException.quote(prefix)
          + " has a fragment (#...), which never reaches a server: no URL could match it");
    }
    String host = hostOf(prefix.strip());
    if (host != null && host.indexOf('*') >= 0) {
      throw ConfigException.at(path, ConfigException.quote(prefix) + " has a wildcard in its host, which would"
          + " match no site: use a domain rule, like {domain: \"example.org\"} (it covers every host under it), or a regex");
    }
    String normalized = UrlNormalizer.prefix(prefix).orElseThrow(() -> ConfigException.at(path,
        ConfigException.quote(prefix) + " is not a valid URL prefix"));
    // A prefix stopping inside a host is read as a whole URL: "http://127.10." is the host 127.0.0.10,
    // and the rule would quietly match another host than meant. Refused, with the way to say it.
    String written = hostOf(prefix.strip());
    String read = hostOf(normalized);
    if (endsInAuthority(prefix.strip()) && written != null && read != null && !written.startsWith("[")
        && !written.equalsIgnoreCase(read) && !isIdnSpelling(written, read)) {
      throw ConfigException.at(path, ConfigException.quote(prefix) + " names the host " + read + " (a prefix is read as"
          + " a URL, its host whole); to match hosts starting with " + written + " use a regex rule");
    }
    return normalized;
  }

  private static String regex(String path, JsonNode node) {
    // Not stripped: spaces may be part of the pattern.
    String regex = Values.string(path, node);
    if (regex.isEmpty()) throw ConfigException.at(path, "must not be empty");
    return regex;
  }

  /** The rule names the problem, as in {@code do_not_crawl[1]: regex "(" is invalid: Unclosed group}. */
  private static void checkCompiles(String rulePath, String regex) {
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      String where = e.getIndex() >= 0 ? " near index " + e.getIndex() : "";
      throw ConfigException.at(rulePath,
          "regex " + ConfigException.quote(regex) + " is invalid: " + e.getDescription() + where);
    }
  }

  /** The host part of an http(s) URL or prefix as written (port, path, query cut), or null. */
  private static String hostOf(String url) {
    int start = url.indexOf("://");
    if (start < 0) return null;
    start += 3;
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) end++;
    String authority = url.substring(url.lastIndexOf('@', end - 1) >= start ? url.lastIndexOf('@', end - 1) + 1 : start, end);
    if (authority.startsWith("[")) return authority.substring(0, authority.indexOf(']') + 1);
    int colon = authority.lastIndexOf(':');
    String host = colon >= 0 ? authority.substring(0, colon) : authority;
    return host.endsWith(".") && !host.isEmpty() ? host.substring(0, host.length() - 1) : host;
  }

  /** Whether a prefix stops in its authority (no path, query or fragment after it). */
  private static boolean endsInAuthority(String url) {
    int start = url.indexOf("://");
    return start >= 0 && url.indexOf('/', start + 3) < 0 && url.indexOf('?', start + 3) < 0;
  }

  /** Whether the host was written in Unicode or with escapes and read as its ASCII form. */
  private static boolean isIdnSpelling(String written, String read) {
    return written.chars().anyMatch(c -> c > 0x7F || c == '%') || read.contains("xn--");
  }
}
