package org.forager.scope;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.url.Origin;

/**
 * Whether a normalized URL may be a crawl candidate or be requested at all, by {@code scope.mode}
 * (docs/scope.md):
 * <ul>
 *   <li>{@link Mode#ORIGINS}: its origin is one of the seeds' origins;
 *   <li>{@link Mode#DOMAINS}: its host's {@link RegistrableDomain} is one of the seeds', whatever the
 *       scheme, subdomain or port;
 *   <li>{@link Mode#OPEN}: any http(s) URL; when {@code scope.allow} is not empty, only under it.
 * </ul>
 * In every mode a host {@code scope.deny} covers is refused first: deny wins over everything, seeds
 * included. In {@code domains} mode with {@code scope.max_hops} above 0, a URL outside the seeds'
 * domains is still reachable when at most that many links lead to it from the last page inside them
 * ({@link #hopsTo}, {@link #reachable}): its candidates carry the count. Built once from the configuration and the seeds' origins; immutable and thread-safe. Asked
 * for every discovered link, so {@link #contains} allocates at most the host string.
 */
public final class Scope {

  /** Up to this many seed origins, comparing prefixes beats extracting the origin (no allocation). */
  private static final int FEW_ORIGINS = 4;

  private final ScopeConfig config;
  private final String[] originPrefixes;
  /** The seeds' origins (origins mode), packed: a million of them cost 31 MB, not 100. */
  private final CompactStrings origins;
  /** The seeds' registrable domains (domains mode), packed likewise. */
  private final CompactStrings seedDomains;
  private final DomainList allow;
  private final DomainList deny;

  private Scope(ScopeConfig config, Iterable<Origin> seedOrigins) {
    this.config = config;
    this.allow = new DomainList(config.allow());
    this.deny = new DomainList(config.deny());
    // Only what the mode asks: with a million seed origins each set costs ~150 bytes an origin, and
    // the domain lookups a second of start-up (docs/benchmarks.md, issue 14 baseline).
    CompactStrings.Builder originNames = new CompactStrings.Builder();
    Set<String> domainNames = new HashSet<>();
    List<String> few = new ArrayList<>();
    for (Origin origin : seedOrigins) {
      if (config.mode() == Mode.ORIGINS) {
        String name = origin.toString();
        originNames.add(name);
        if (few.size() <= FEW_ORIGINS && !few.contains(name)) few.add(name);
      }
      if (config.mode() == Mode.DOMAINS) domainNames.add(RegistrableDomain.of(origin.host()));
    }
    this.origins = originNames.build();
    this.seedDomains = CompactStrings.of(domainNames);
    this.originPrefixes = origins.size() <= FEW_ORIGINS ? few.toArray(String[]::new) : new String[0];
  }

  /**
   * The scope of a crawl from {@code config} and the origins of its seeds, read once (cheapest in
   * origin order, as a store gives them: a million need not be in the heap at once).
   */
  public static Scope of(ScopeConfig config, Iterable<Origin> seedOrigins) {
    return new Scope(config, seedOrigins);
  }

  public Mode mode() {
    return config.mode();
  }

  /** Empty when the normalized URL is in scope; else why not, in one line for the crawl log. */
  public Optional<String> refuses(String normalizedUrl) {
    String host = Hosts.hostOf(normalizedUrl);
    if (host == null) return Optional.of("out of scope: not an http(s) URL with a host");
    if (!deny.isEmpty()) {
      String entry = deny.match(host);
      if (entry != null) return Optional.of("out of scope: scope.deny " + entry);
    }
    return switch (config.mode()) {
      case ORIGINS -> inSeedOrigins(normalizedUrl) ? Optional.empty()
          : Optional.of("out of scope: origin " + originOf(normalizedUrl) + " is not a seed origin"
              + " (scope.mode: origins)");
      case DOMAINS -> {
        String domain = RegistrableDomain.of(host);
        yield seedDomains.contains(domain) ? Optional.empty()
            : Optional.of("out of scope: domain " + domain + " is not a seed domain (scope.mode: domains)");
      }
      case OPEN -> allow.isEmpty() || allow.match(host) != null ? Optional.empty()
          : Optional.of("out of scope: host " + Hosts.withoutTrailingDot(host) + " is not under scope.allow "
              + allow + " (scope.mode: open)");
    };
  }

  /** Whether the normalized URL is in scope: {@code refuses(url).isEmpty()}, without building the reason. */
  public boolean contains(String normalizedUrl) {
    int start = Hosts.hostStart(normalizedUrl);
    if (start < 0) return false;
    int end = Hosts.hostEnd(normalizedUrl, start);
    if (end == start) return false;
    Mode mode = config.mode();
    if (mode == Mode.ORIGINS && deny.isEmpty()) return inSeedOrigins(normalizedUrl);
    String host = normalizedUrl.substring(start, end);
    if (!deny.isEmpty() && deny.match(host) != null) return false;
    return switch (mode) {
      case ORIGINS -> inSeedOrigins(normalizedUrl);
      case DOMAINS -> seedDomains.contains(RegistrableDomain.of(host));
      case OPEN -> allow.isEmpty() || allow.match(host) != null;
    };
  }

  /** {@code scope.max_hops}: 0 unless a domains crawl may wander. */
  public int maxHops() {
    return config.maxHops();
  }

  /**
   * The hops of a URL found on a page {@code fromHops} hops away: 0 inside the scope proper (the
   * seeds' domains), one more than the page's outside it.
   */
  public int hopsTo(String normalizedUrl, int fromHops) {
    return contains(normalizedUrl) ? 0 : fromHops + 1;
  }

  /**
   * Whether a URL {@code hops} hops away may be a candidate: in scope, or a domains crawl's wander
   * within {@code scope.max_hops} to a host {@code scope.deny} does not cover.
   */
  public boolean reachable(String normalizedUrl, int hops) {
    return contains(normalizedUrl) || reachableOutside(normalizedUrl, hops);
  }

  /** {@link #reachable} for a URL the caller knows is not {@link #contains contained}. */
  public boolean reachableOutside(String normalizedUrl, int hops) {
    return hops <= config.maxHops() && mayRequest(normalizedUrl);
  }

  /**
   * Whether a URL may be requested at all: in scope, or, when a domains crawl may wander, any http(s)
   * URL {@code scope.deny} does not cover (which ones it wanders to its candidates' hops decide).
   */
  public boolean mayRequest(String normalizedUrl) {
    if (contains(normalizedUrl)) return true;
    if (config.maxHops() == 0) return false;
    String host = Hosts.hostOf(normalizedUrl);
    return host != null && !host.isEmpty() && (deny.isEmpty() || deny.match(host) == null);
  }

  /**
   * Whether the crawl may take on one more origin when it knows {@code knownOrigins} already
   * ({@code scope.max_origins}). The caller counts; origins it knows stay crawlable whatever this says.
   */
  public boolean mayAddOrigin(long knownOrigins) {
    return knownOrigins < config.maxOrigins();
  }

  /** The most origins of one registrable domain the crawl takes on ({@code scope.max_origins_per_domain}). */
  public long maxOriginsPerDomain() {
    return config.maxOriginsPerDomain();
  }

  private boolean inSeedOrigins(String url) {
    if (origins.size() <= FEW_ORIGINS) {
      for (String prefix : originPrefixes) {
        if (url.startsWith(prefix) && (url.length() == prefix.length() || isAuthorityEnd(url.charAt(prefix.length())))) {
          return true;
        }
      }
      return false;
    }
    return origins.containsPrefix(url, Hosts.authorityEnd(url, Hosts.hostStart(url)));
  }

  /** {@code scheme://host[:port]} of a normalized http(s) URL: what {@link Origin#toString} gives. */
  private static String originOf(String url) {
    return url.substring(0, Hosts.authorityEnd(url, Hosts.hostStart(url)));
  }

  private static boolean isAuthorityEnd(char c) {
    return c == '/' || c == '?' || c == '#';
  }

  @Override
  public String toString() {
    String seeds = switch (config.mode()) {
      case ORIGINS -> origins.size() + " seed origins";
      case DOMAINS -> seedDomains.size() + " seed domains";
      case OPEN -> allow.isEmpty() ? "any host" : "allow " + allow;
    };
    return "scope " + config.mode().key() + " (" + seeds + (deny.isEmpty() ? "" : ", deny " + deny)
        + (config.maxHops() == 0 ? "" : ", max_hops " + config.maxHops())
        + ", max_origins " + config.maxOrigins()
        + (config.maxOriginsPerDomain() == ScopeConfig.DEFAULT_MAX_ORIGINS_PER_DOMAIN ? ""
        : ", max_origins_per_domain " + config.maxOriginsPerDomain()) + ")";
  }
}
