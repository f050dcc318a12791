package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.forager.config.CrawlConfig.Politeness;
import org.forager.config.Sites.Rule;

/**
 * Reads the {@code sites} list and checks it against the global values it overrides: each rule
 * names one host or domain not named by another rule, sets at least one value, and leaves the hosts it
 * governs with {@code min_delay ≤ max_delay} once its values are laid over those it inherits.
 * Stateless.
 */
final class SiteReader {

  static final List<String> SETTING_KEYS = List.of(
      "min_delay", "max_delay", "response_time_factor", "max_retry_after", "max_crawl_delay", "max_pages", "max_urls",
      "unit");
  static final List<String> KEYS = List.of(
      "host", "domain", "min_delay", "max_delay", "response_time_factor", "max_retry_after", "max_crawl_delay",
      "max_pages", "max_urls", "unit");

  private SiteReader() {}

  /** The {@code sites} list at {@code path}, checked against the global politeness and page limit. */
  static Sites read(String path, JsonNode node, Politeness politeness, long maxPagesPerOrigin) {
    List<Rule> rules = Values.list(path, node, SiteReader::rule);
    Map<String, Integer> named = new HashMap<>();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      Integer earlier = named.putIfAbsent(rule.describe(), i);
      if (earlier != null) {
        throw ConfigException.at(path + "[" + i + "]." + (rule.host() != null ? "host" : "domain"),
            "names the " + rule.describe() + " a second time (first in " + path + "[" + earlier + "])");
      }
    }
    Sites sites = Sites.of(rules);
    for (int i = 0; i < rules.size(); i++) checkDelays(path, i, sites, politeness, maxPagesPerOrigin);
    return sites;
  }

  private static Rule rule(String path, JsonNode node) {
    if (node.has("max_urls_per_origin")) {
      throw ConfigException.at(path, "unknown key 'max_urls_per_origin' (in a sites rule it is 'max_urls')");
    }
    if (node.has("max_pages_per_origin")) {
      // The global key's name is the one people will write here.
      throw ConfigException.at(path, "unknown key 'max_pages_per_origin' (in a sites rule it is 'max_pages')");
    }
    Section section = Section.of(path, node, KEYS);
    if (section.has("host") == section.has("domain")) {
      throw ConfigException.at(path, "needs exactly one of host, domain");
    }
    if (SETTING_KEYS.stream().noneMatch(section::has)) {
      throw ConfigException.at(path, "sets nothing (give at least one of " + String.join(", ", SETTING_KEYS) + ")");
    }
    Rule rule = section.has("host")
        ? Rule.host(section.get("host", SiteReader::name).orElseThrow())
        : Rule.domain(section.get("domain", SiteReader::name).orElseThrow());
    rule = with(rule, section.get("min_delay", Values::duration), Rule::withMinDelay);
    rule = with(rule, section.get("max_delay", Values::duration), Rule::withMaxDelay);
    rule = with(rule, section.get("response_time_factor", (p, n) -> Values.numberAtLeast(p, n, 0)),
        Rule::withResponseTimeFactor);
    rule = with(rule, section.get("max_retry_after", Values::duration), Rule::withMaxRetryAfter);
    rule = with(rule, section.get("max_crawl_delay", Values::duration), Rule::withMaxCrawlDelay);
    rule = with(rule, section.get("max_pages", (p, n) -> Values.wholeNumber(p, n, 1, Long.MAX_VALUE)),
        Rule::withMaxPages);
    rule = with(rule, section.get("max_urls", (p, n) -> Values.wholeNumber(p, n, 1, Long.MAX_VALUE)),
        Rule::withMaxUrls);
    if (section.get("unit", SiteReader::unit).orElse(false)) {
      if (rule.host() != null) {
        throw ConfigException.at(path + ".unit", "domain needs a domain rule: write domain: "
            + ConfigException.quote(rule.host()) + " to crawl it and its subdomains as one unit");
      }
      rule = rule.withDomainUnit();
    }
    return rule;
  }

  /** {@code unit}: {@code domain} (the rule's hosts as one politeness unit) or {@code origin} (each its own). */
  private static boolean unit(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    if (text.equals("domain")) return true;
    if (text.equals("origin")) return false;
    throw ConfigException.at(path, ConfigException.quote(text) + " is not a politeness unit (use origin, the"
        + " default: each origin its own, or domain: every host of the domain as one)");
  }

  private static <T> Rule with(Rule rule, Optional<T> value, java.util.function.BiFunction<Rule, T, Rule> setter) {
    return value.map(v -> setter.apply(rule, v)).orElse(rule);
  }

  /** A host or domain as normalized URLs spell it; a glob is refused, a domain already covers its subdomains. */
  private static String name(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    if (text.contains("*")) {
      String bare = text.replaceFirst("^[*.]+", "");
      throw ConfigException.at(path, ConfigException.quote(text) + ": no wildcards; write domain: "
          + ConfigException.quote(bare.isEmpty() ? "example.org" : bare) + " (a domain covers all its subdomains)");
    }
    return RuleReader.host(path, node);
  }

  /**
   * The hosts rule {@code i} governs get {@code min_delay ≤ max_delay}. Only a rule that sets one of
   * the two can break it: the others have the values of a less specific rule, checked on its own.
   */
  private static void checkDelays(String path, int i, Sites sites, Politeness global, long maxPagesPerOrigin) {
    Rule rule = sites.rules().get(i);
    if (rule.minDelay().isEmpty() && rule.maxDelay().isEmpty()) return;
    List<Rule> chain = sites.chainOf(rule);
    Politeness merged = Sites.merge(chain, global, maxPagesPerOrigin).politeness();
    if (merged.minDelay().compareTo(merged.maxDelay()) <= 0) return;
    String rulePath = path + "[" + i + "]";
    if (rule.minDelay().isPresent()) {
      throw ConfigException.at(rulePath + ".min_delay", Durations.format(merged.minDelay()) + " must be ≤ max_delay ("
          + Durations.format(merged.maxDelay()) + ", " + source(path, sites, chain, Rule::maxDelay, "max_delay") + ")");
    }
    throw ConfigException.at(rulePath + ".max_delay", Durations.format(merged.maxDelay()) + " must be ≥ min_delay ("
        + Durations.format(merged.minDelay()) + ", " + source(path, sites, chain, Rule::minDelay, "min_delay") + ")");
  }

  /** Where the value a chain of rules ends up with comes from: the first rule setting it, or the global key. */
  private static String source(String path, Sites sites, List<Rule> chain,
      java.util.function.Function<Rule, Optional<Duration>> setting, String key) {
    return chain.stream().filter(r -> setting.apply(r).isPresent()).findFirst()
        .map(r -> "from " + path + "[" + sites.rules().indexOf(r) + "]")
        .orElse("politeness." + key);
  }
}
