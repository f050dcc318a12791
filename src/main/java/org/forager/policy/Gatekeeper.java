package org.forager.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig;
import org.forager.config.CrawlConfig.DoNotCrawlRule;
import org.forager.config.CrawlConfig.QueryParameterRule;
import org.forager.fetch.Outcome;
import org.forager.scope.Scope;
import org.forager.url.Origin;

/**
 * Local crawl policy, checked in the order of DESIGN.md: scope, do_not_crawl, url_query_parameters,
 * skip_extensions, max_url_length, max_depth, then max_repeated_path_segments. robots.txt and the
 * network policy come after it, in the crawl loop and the fetcher. Immutable and thread-safe.
 *
 * <p>One exception to that order: a URL longer than max_url_length is refused for it before any
 * {@code do_not_crawl} regex is run over it. {@code java.util.regex} recurses once per repetition of
 * a group, and a rule with nested groups overflows the stack on a URL some thousands of characters
 * long, which a hostile redirect or sitemap can name; no such URL is ever a candidate, so no rule
 * needs to see it.
 *
 * <p>Three uses: {@link #isCandidate} decides at discovery whether a link becomes a crawl candidate
 * at all (scope and the trap limits: such URLs are never stored); {@link #check} runs every gate on
 * a candidate about to be fetched, so rules added since the URL was stored still apply; {@link
 * #checkRequest} runs the gates that say whether a URL may be requested at all, whatever it is for:
 * robots.txt and each of its redirects, sitemaps, pages. An excluded host gets no request of any kind.
 */
public final class Gatekeeper implements RequestGate {

  /** The reason of a URL refused for its query (the summary counts them by it). */
  public static final String QUERY_REFUSED = "url_query_parameters: no rule allows the parameters of this query";
  /** In a url_query_parameters rule's {@code allow}: every parameter name. */
  public static final String ANY_PARAMETER = "*";

  private final Scope scope;
  private final List<Pattern> doNotCrawlRegexes = new ArrayList<>();
  private final List<String> doNotCrawlPrefixes = new ArrayList<>();
  private final HostRules doNotCrawlHosts;
  private final List<QueryParameterRule> queryRules;
  /** The skipped extensions (a dot, then lower case) by their length in chars. */
  private final String[][] skipExtensionsByLength;
  /** Per length, the ASCII chars (lower case) that follow the dot in some skipped extension of it. */
  private final boolean[][] skipFirstCharsByLength;
  private final int maxUrlLength;
  private final int maxDepth;
  private final int maxRepeatedSegments;
  private final Optional<ExclusionFile> exclusionFile;
  private final Blocklist blocklist;

  /** The crawl's gates, with {@code scope.*} read against the origins the store has in scope. */
  public Gatekeeper(CrawlConfig config, Set<Origin> scopeOrigins) {
    this(config, Scope.of(config.scope(), scopeOrigins));
  }

  public Gatekeeper(CrawlConfig config, Scope scope) {
    this(config, scope, new Blocklist());
  }

  /** The crawl's gates, with the hosts an operator blocks in the running crawl ({@code blocklist}). */
  public Gatekeeper(CrawlConfig config, Scope scope, Blocklist blocklist) {
    this.scope = scope;
    this.blocklist = blocklist;
    Set<String> hosts = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (DoNotCrawlRule rule : config.doNotCrawl()) {
      if (rule.host() != null) hosts.add(rule.host().toLowerCase(Locale.ROOT));
      if (rule.domain() != null) domains.add(rule.domain().toLowerCase(Locale.ROOT));
      if (rule.prefix() != null) doNotCrawlPrefixes.add(rule.prefix());
      if (rule.regex() != null) doNotCrawlRegexes.add(Pattern.compile(rule.regex()));
    }
    this.doNotCrawlHosts = new HostRules(hosts, domains);
    this.queryRules = List.copyOf(config.urlQueryParameters());
    this.skipExtensionsByLength = byLength(config.skipExtensions().stream()
        .map(e -> (e.startsWith(".") ? e : "." + e).toLowerCase(Locale.ROOT))
        .distinct().toList());
    this.skipFirstCharsByLength = firstChars(skipExtensionsByLength);
    this.maxUrlLength = config.limits().maxUrlLength();
    this.maxDepth = config.limits().maxDepth();
    this.maxRepeatedSegments = config.limits().maxRepeatedPathSegments();
    this.exclusionFile = config.doNotCrawlFile().map(ExclusionFile::watch);
  }

  private static String[][] byLength(List<String> extensions) {
    int longest = extensions.stream().mapToInt(String::length).max().orElse(0);
    String[][] byLength = new String[longest + 1][];
    for (int length = 0; length <= longest; length++) {
      int n = length;
      byLength[length] = extensions.stream().filter(e -> e.length() == n).toArray(String[]::new);
    }
    return byLength;
  }

  private static boolean[][] firstChars(String[][] byLength) {
    boolean[][] first = new boolean[byLength.length][128];
    for (int length = 2; length < byLength.length; length++) {
      for (String extension : byLength[length]) {
        char c = extension.charAt(1);
        if (c < 128) {
          first[length][c] = true;
        } else {
          Arrays.fill(first[length], true); // case folding beyond ASCII: no shortcut
        }
      }
    }
    return first;
  }

  /** Whether a discovered link (normalized) inside the scope proper may become a crawl candidate. */
  public boolean isCandidate(String url, int depth) {
    return isCandidate(url, depth, 0);
  }

  /**
   * Whether a discovered link (normalized) {@code hops} hops outside the seeds' domains ({@link
   * Scope#hopsTo}) may become a crawl candidate; cheap, on the hot path.
   */
  public boolean isCandidate(String url, int depth, int hops) {
    return isCandidate(url, depth, hops, scope.contains(url));
  }

  /**
   * {@link #isCandidate(String, int, int)} for a link whose place in the scope proper the caller
   * already knows ({@code contained}, what {@link Scope#contains} says of it): a page's links to its
   * own origin share the page's answer.
   */
  public boolean isCandidate(String url, int depth, int hops, boolean contained) {
    return url.length() <= maxUrlLength
        && depth <= maxDepth
        && (contained || scope.reachableOutside(url, hops))
        && !hasSkippedExtension(url)
        && !hasRepeatedSegments(url);
  }

  /** Every local gate, in order, for a candidate inside the scope proper about to be fetched. */
  public Verdict check(String url, int depth) {
    return check(url, depth, 0);
  }

  /**
   * Every local gate, in order, for a candidate {@code hops} hops outside the seeds' domains about to
   * be fetched (a crawl resumed with a smaller {@code scope.max_hops} refuses those now beyond it).
   */
  public Verdict check(String url, int depth, int hops) {
    Verdict request = checkRequest(url);
    if (request instanceof Verdict.Rejected) return request;
    Optional<String> beyond = outOfScope(url, hops);
    if (beyond.isPresent()) return local(beyond.get());
    if (hasSkippedExtension(url)) return local("skip_extensions");
    if (depth > maxDepth) return local("deeper than limits.max_depth " + maxDepth);
    if (hasRepeatedSegments(url)) {
      return local("a path segment repeats more than limits.max_repeated_path_segments " + maxRepeatedSegments);
    }
    return Verdict.ALLOWED;
  }

  /** Whether a (normalized) URL is in the crawl's scope: {@link #outOfScope} without the reason. */
  public boolean inScope(String url) {
    return scope.contains(url);
  }

  /** Why a (normalized) URL is out of the crawl's scope ({@code scope.*}), when it is; cheap when it is not. */
  public Optional<String> outOfScope(String url) {
    return scope.contains(url) ? Optional.empty() : scope.refuses(url);
  }

  /** Why a (normalized) URL {@code hops} hops away is out of reach, when it is: {@code scope.max_hops} included. */
  public Optional<String> outOfScope(String url, int hops) {
    if (scope.reachable(url, hops)) return Optional.empty();
    Optional<String> reason = scope.refuses(url);
    if (scope.maxHops() == 0 || !scope.mayRequest(url)) return reason;
    return reason.map(r -> r + ", " + hops + " hops away, more than scope.max_hops " + scope.maxHops());
  }

  /** The crawl's scope. */
  public Scope scope() {
    return scope;
  }

  /**
   * The gates that decide whether a (normalized) URL may be requested at all, for any purpose:
   * scope, the operator's blocks ({@link Blocklist}), {@code do_not_crawl}, the exclusion file and
   * {@code url_query_parameters}; and max_url_length, before the {@code do_not_crawl} regexes (see
   * above): a robots.txt redirect or a sitemap that long is refused as a page would be. The other trap
   * limits and skip_extensions are for pages only: a robots.txt or a sitemap ({@code .xml.gz}) is not a
   * page.
   */
  @Override
  public Verdict checkRequest(String url) {
    if (!scope.mayRequest(url)) return local(scope.refuses(url).orElse("out of scope"));
    if (!blocklist.isEmpty()) {
      Optional<String> blocked = blocklist.covering(Origin.ofUrl(url).host());
      if (blocked.isPresent()) return local("blocked by the operator: " + blocked.get() + " (forager ctl block)");
    }
    if (!doNotCrawlHosts.isEmpty()) {
      Optional<String> rule = doNotCrawlHosts.match(Origin.ofUrl(url).host());
      if (rule.isPresent()) return local("do_not_crawl " + rule.get());
    }
    for (String prefix : doNotCrawlPrefixes) {
      if (url.startsWith(prefix)) return local("do_not_crawl prefix " + prefix);
    }
    // Before the regexes: a user's rule may overflow the stack on a long enough URL (see above).
    if (url.length() > maxUrlLength) return local("longer than limits.max_url_length " + maxUrlLength);
    for (Pattern regex : doNotCrawlRegexes) {
      if (regex.matcher(url).matches()) return local("do_not_crawl regex " + regex.pattern());
    }
    if (exclusionFile.isPresent()) {
      Optional<String> excluded = exclusionFile.get().refuses(url);
      if (excluded.isPresent()) return local(excluded.get());
    }
    int q = url.indexOf('?');
    if (q >= 0 && !queryAllowed(url.substring(0, q), url.substring(q + 1))) {
      return local(QUERY_REFUSED);
    }
    return Verdict.ALLOWED;
  }




  /**
   * A query passes when one rule whose prefix matches the URL without query allows all its names
   * ({@value #ANY_PARAMETER} allows any).
   */
  private boolean queryAllowed(String withoutQuery, String query) {
    List<String> names = parameterNames(query);
    for (QueryParameterRule rule : queryRules) {
      if (withoutQuery.startsWith(rule.prefix())
          && (rule.allow().contains(ANY_PARAMETER) || rule.allow().containsAll(names))) {
        return true;
      }
    }
    return false;
  }

  static List<String> parameterNames(String query) {
    List<String> names = new ArrayList<>();
    for (String part : query.split("&", -1)) {
      if (part.isEmpty()) continue;
      int eq = part.indexOf('=');
      names.add(eq < 0 ? part : part.substring(0, eq));
    }
    return names;
  }

  private boolean hasSkippedExtension(String url) {
    int end = url.indexOf('?');
    if (end < 0) end = url.length();
    int slash = url.lastIndexOf('/', end - 1);
    int dot = url.lastIndexOf('.', end - 1);
    if (dot <= slash) return false;
    // Compared in place, not as a lower-cased copy: this runs for every link a page offers.
    int length = end - dot;
    if (length >= skipExtensionsByLength.length) return false;
    if (length >= 2) {
      // Most links end in an extension no skipped one of its length starts like (".html"): no compare.
      char c = url.charAt(dot + 1);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c < 128 && !skipFirstCharsByLength[length][c]) return false;
    }
    for (String extension : skipExtensionsByLength[length]) {
      if (url.regionMatches(true, dot, extension, 0, length)) return true;
    }
    return false;
  }

  /**
   * Whether one path segment occurs more than the limit: the shape of relative-link traps
   * ({@code /a/b/a/b/a/b/...}) that depth alone catches late.
   */
  private boolean hasRepeatedSegments(String url) {
    int start = url.indexOf('/', url.indexOf("://") + 3);
    if (start < 0) return false;
    int end = url.indexOf('?', start);
    if (end < 0) end = url.length();
    // Most paths have no more segments than may repeat: told without a list (this ran for every link).
    if (segmentCount(url, start, end) <= maxRepeatedSegments) return false;
    List<String> segments = null;
    int from = start + 1;
    while (from < end) {
      int slash = url.indexOf('/', from);
      if (slash < 0 || slash > end) slash = end;
      if (slash > from) {
        if (segments == null) segments = new ArrayList<>();
        segments.add(url.substring(from, slash));
      }
      from = slash + 1;
    }
    if (segments == null || segments.size() <= maxRepeatedSegments) return false;
    for (int i = 0; i < segments.size(); i++) {
      int count = 1;
      for (int j = i + 1; j < segments.size(); j++) {
        if (segments.get(i).equals(segments.get(j)) && ++count > maxRepeatedSegments) return true;
      }
    }
    return false;
  }

  /** The non-empty path segments of {@code url} between {@code start} (a slash) and {@code end}. */
  private static int segmentCount(String url, int start, int end) {
    int count = 0;
    for (int i = start + 1; i < end; i++) {
      if (url.charAt(i) != '/' && url.charAt(i - 1) == '/') count++;
    }
    return count;
  }

  private static Verdict local(String reason) {
    return new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, reason);
  }
}
