package org.forager.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Function;
import org.forager.config.CrawlConfig.Politeness;

/**
 * The {@code sites} section: per-site overrides of the politeness settings and of the page limit,
 * by exact host or by domain (a domain covers itself and every subdomain), and the answer to "what
 * holds for this host". Hosts and domains are in normalized form (see {@code UrlNormalizer.host}).
 *
 * <p>Rules cascade, most specific first: each setting is taken from the exact {@code host} rule if
 * it sets it, else from the longest {@code domain} rule covering the host that sets it, and so on to
 * the global value ({@code politeness.*}, {@code limits.max_pages_per_origin}). An IP address has no
 * subdomains: only a rule naming it exactly applies to it.
 *
 * <p>Immutable and thread-safe. Asked once per origin; an answer costs one map lookup per label of the
 * host, whatever the number of rules.
 */
public final class Sites {

  /** No rules: every origin gets the global values. */
  public static final Sites NONE = new Sites(List.of());

  private final List<Rule> rules;
  private final Map<String, Rule> hosts = new HashMap<>();
  private final Map<String, Rule> domains = new HashMap<>();

  private Sites(List<Rule> rules) {
    this.rules = List.copyOf(rules);
    for (Rule rule : this.rules) {
      Map<String, Rule> index = rule.host() != null ? hosts : domains;
      if (index.putIfAbsent(rule.name(), rule) != null) {
        throw new IllegalArgumentException("two sites rules for the " + rule.describe());
      }
    }
  }

  /**
   * The rules, each naming a different host or domain.
   *
   * @throws IllegalArgumentException when two rules name the same host, or the same domain
   */
  public static Sites of(List<Rule> rules) {
    return rules.isEmpty() ? NONE : new Sites(rules);
  }

  public List<Rule> rules() {
    return rules;
  }

  /** What holds for {@code host}: the rules that cover it over the global values. */
  public Settings settingsFor(String host, Politeness politeness, long maxPagesPerOrigin) {
    return merge(matching(host), politeness, maxPagesPerOrigin);
  }

  /**
   * The most URLs the store keeps of an origin of {@code host}: the most specific covering rule's {@code
   * max_urls}, else {@code global} ({@code limits.max_urls_per_origin}).
   */
  public long maxUrlsFor(String host, long global) {
    if (rules.isEmpty()) return global;
    for (Rule rule : matching(host)) if (rule.maxUrls().isPresent()) return rule.maxUrls().getAsLong();
    return global;
  }

  /**
   * The rules that make up what holds for the hosts {@code rule} is the most specific rule of, most
   * specific first: the rule itself, then the domain rules covering its name. {@code rule} must be one
   * of {@link #rules()}.
   */
  List<Rule> chainOf(Rule rule) {
    List<Rule> chain = matching(rule.name());
    // A domain rule's own hosts are those without a host rule: that one is not part of its chain.
    if (rule.domain() != null && chain.get(0).host() != null) chain.remove(0);
    return chain;
  }

  /** The rules covering {@code host}, most specific first. */
  List<Rule> matching(String host) {
    // "example.org." names the same host as "example.org" (a fully qualified name).
    if (host.endsWith(".")) host = host.substring(0, host.length() - 1);
    List<Rule> chain = new ArrayList<>(2);
    if (rules.isEmpty()) return chain;
    add(chain, hosts.get(host));
    add(chain, domains.get(host));
    if (domains.isEmpty() || isIpAddress(host)) return chain;
    for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      add(chain, domains.get(host.substring(dot + 1)));
    }
    return chain;
  }

  private static void add(List<Rule> chain, Rule rule) {
    if (rule != null) chain.add(rule);
  }

  /** An IP address has no subdomains: "0.0.1" is not a domain of "10.0.0.1". */
  private static boolean isIpAddress(String host) {
    return host.startsWith("[") || (!host.isEmpty() && Character.isDigit(host.charAt(host.length() - 1))
        && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9')));
  }

  /** What holds for the hosts governed by a chain of rules (see {@link #chainOf}). */
  static Settings merge(List<Rule> chain, Politeness global, long maxPagesPerOrigin) {
    if (chain.isEmpty()) return new Settings(global, maxPagesPerOrigin);
    Settings own = mergeValues(chain, global, maxPagesPerOrigin);
    // The widest rule that makes its domain one unit (a unit rule inside it would split what it joins):
    // its own values give the unit's delay.
    for (int i = chain.size() - 1; i >= 0; i--) {
      Rule rule = chain.get(i);
      if (!rule.domainUnit()) continue;
      Duration unitDelay = mergeValues(chain.subList(i, chain.size()), global, maxPagesPerOrigin).politeness().minDelay();
      return new Settings(own.politeness(), own.maxPagesPerOrigin(), Optional.of(new DomainUnit(rule.domain(), unitDelay)));
    }
    return own;
  }

  private static Settings mergeValues(List<Rule> chain, Politeness global, long maxPagesPerOrigin) {
    Politeness politeness = new Politeness(
        first(chain, Rule::minDelay).orElse(global.minDelay()),
        first(chain, Rule::maxDelay).orElse(global.maxDelay()),
        chain.stream().map(Rule::responseTimeFactor).filter(OptionalDouble::isPresent).findFirst()
            .orElse(OptionalDouble.of(global.responseTimeFactor())).getAsDouble(),
        first(chain, Rule::maxRetryAfter).orElse(global.maxRetryAfter()),
        first(chain, Rule::maxCrawlDelay).orElse(global.maxCrawlDelay()),
        global.perIp()); // per address, not per site: no rule sets it
    long maxPages = chain.stream().map(Rule::maxPages).filter(OptionalLong::isPresent).findFirst()
        .orElse(OptionalLong.of(maxPagesPerOrigin)).getAsLong();
    return new Settings(politeness, maxPages);
  }

  private static <T> Optional<T> first(List<Rule> chain, Function<Rule, Optional<T>> setting) {
    return chain.stream().map(setting).flatMap(Optional::stream).findFirst();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Sites other && rules.equals(other.rules);
  }

  @Override
  public int hashCode() {
    return rules.hashCode();
  }

  @Override
  public String toString() {
    return "Sites" + rules;
  }

  /**
   * What holds for one origin.
   *
   * @param politeness its politeness settings (robots.txt Crawl-delay still comes on top)
   * @param maxPagesPerOrigin its page budget per run (or per pass in continuous mode)
   * @param domainUnit the domain whose hosts are crawled as one politeness unit with this origin's,
   *     when a rule says so ({@code unit: domain})
   */
  public record Settings(Politeness politeness, long maxPagesPerOrigin, Optional<DomainUnit> domainUnit) {

    public Settings {
      Objects.requireNonNull(domainUnit, "domainUnit");
    }

    /** Settings of an origin that is a politeness unit of its own. */
    public Settings(Politeness politeness, long maxPagesPerOrigin) {
      this(politeness, maxPagesPerOrigin, Optional.empty());
    }
  }

  /**
   * A domain crawled as one politeness unit ({@code unit: domain}): one request in flight at once to
   * all of its hosts (every scheme and port), and {@code minDelay} from the end of one to the start of
   * the next, on top of each origin's own delay.
   *
   * @param domain the rule's domain, normalized
   * @param minDelay the rule's {@code min_delay} (as it inherits it)
   */
  public record DomainUnit(String domain, Duration minDelay) {}

  /**
   * One {@code sites} rule: exactly one of {@code host} (this host exactly) and {@code domain} (the
   * domain and every subdomain) is set, the other is null; each empty setting is inherited. Build it
   * with {@link #host(String)} or {@link #domain(String)} and the {@code with...} methods.
   */
  public record Rule(
      String host,
      String domain,
      Optional<Duration> minDelay,
      Optional<Duration> maxDelay,
      OptionalDouble responseTimeFactor,
      Optional<Duration> maxRetryAfter,
      Optional<Duration> maxCrawlDelay,
      OptionalLong maxPages,
      OptionalLong maxUrls,
      boolean domainUnit) {

    public Rule {
      if (domainUnit && domain == null) throw new IllegalArgumentException("unit: domain needs a domain rule");
      if ((host == null) == (domain == null)) throw new IllegalArgumentException("exactly one of host, domain");
      Objects.requireNonNull(minDelay, "minDelay");
      Objects.requireNonNull(maxDelay, "maxDelay");
      Objects.requireNonNull(responseTimeFactor, "responseTimeFactor");
      Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
      Objects.requireNonNull(maxCrawlDelay, "maxCrawlDelay");
      Objects.requireNonNull(maxPages, "maxPages");
      Objects.requireNonNull(maxUrls, "maxUrls");
    }

    /** A rule without {@code max_urls} (what rules were before it). */
    public Rule(String host, String domain, Optional<Duration> minDelay, Optional<Duration> maxDelay,
        OptionalDouble responseTimeFactor, Optional<Duration> maxRetryAfter, Optional<Duration> maxCrawlDelay,
        OptionalLong maxPages) {
      this(host, domain, minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay, maxPages,
          OptionalLong.empty(), false);
    }

    /** A rule for exactly this host (normalized form), setting nothing yet. */
    public static Rule host(String host) {
      return new Rule(Objects.requireNonNull(host, "host"), null, Optional.empty(), Optional.empty(),
          OptionalDouble.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty());
    }

    /** A rule for this domain and its subdomains (normalized form), setting nothing yet. */
    public static Rule domain(String domain) {
      return new Rule(null, Objects.requireNonNull(domain, "domain"), Optional.empty(), Optional.empty(),
          OptionalDouble.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty());
    }

    public Rule withMinDelay(Duration minDelay) {
      return new Rule(host, domain, Optional.of(minDelay), maxDelay, responseTimeFactor, maxRetryAfter,
          maxCrawlDelay, maxPages, maxUrls, domainUnit);
    }

    public Rule withMaxDelay(Duration maxDelay) {
      return new Rule(host, domain, minDelay, Optional.of(maxDelay), responseTimeFactor, maxRetryAfter,
          maxCrawlDelay, maxPages, maxUrls, domainUnit);
    }

    public Rule withResponseTimeFactor(double responseTimeFactor) {
      return new Rule(host, domain, minDelay, maxDelay, OptionalDouble.of(responseTimeFactor), maxRetryAfter,
          maxCrawlDelay, maxPages, maxUrls, domainUnit);
    }

    public Rule withMaxRetryAfter(Duration maxRetryAfter) {
      return new Rule(host, domain, minDelay, maxDelay, responseTimeFactor, Optional.of(maxRetryAfter),
          maxCrawlDelay, maxPages, maxUrls, domainUnit);
    }

    public Rule withMaxCrawlDelay(Duration maxCrawlDelay) {
      return new Rule(host, domain, minDelay, maxDelay, responseTimeFactor, maxRetryAfter,
          Optional.of(maxCrawlDelay), maxPages, maxUrls, domainUnit);
    }

    public Rule withMaxPages(long maxPages) {
      return new Rule(host, domain, minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay,
          OptionalLong.of(maxPages), maxUrls, domainUnit);
    }

    public Rule withMaxUrls(long maxUrls) {
      return new Rule(host, domain, minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay, maxPages,
          OptionalLong.of(maxUrls), domainUnit);
    }

    /** This domain rule, its hosts crawled as one politeness unit ({@code unit: domain}). */
    public Rule withDomainUnit() {
      return new Rule(host, domain, minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay, maxPages,
          maxUrls, true);
    }

    /** The host or domain named. */
    public String name() {
      return host != null ? host : domain;
    }

    /** "host www.example.org" or "domain example.org". */
    public String describe() {
      return (host != null ? "host " : "domain ") + name();
    }
  }
}
