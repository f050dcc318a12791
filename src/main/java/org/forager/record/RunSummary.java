package org.forager.record;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.forager.fetch.Outcome;
import org.forager.policy.Gatekeeper;
import org.forager.recrawl.Observation;

/**
 * Counts of crawl actions by outcome during one run. Thread-safe.
 *
 * <p>The counters are {@link AtomicLong}s, not {@code LongAdder}s: a few increments a page never
 * contend enough to need an adder's cells, and an adder's code changes shape the first time two
 * threads meet in it, which throws away the compiled code of every caller that inlined it (the page's
 * whole processing, recompiled twice a crawl: docs/benchmarks.md, session 39).
 */
public final class RunSummary {

  private final Map<Outcome, AtomicLong> counts = new EnumMap<>(Outcome.class);
  /** The page actions' part of {@link #counts}: what the outcome lines and the progress line show. */
  private final Map<Outcome, AtomicLong> pageCounts = new EnumMap<>(Outcome.class);
  /** robots.txt requests by what they meant for the origin: {@link FileAnswer}'s order. */
  private final AtomicLong[] robots = newCounters();
  /** Sitemap requests, likewise. */
  private final AtomicLong[] sitemaps = newCounters();
  private final Queue<String> notes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger noteCount = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  /** New URLs the store did not keep: their origin held limits.max_urls_per_origin URLs. */
  private final AtomicLong urlsNotKept = new AtomicLong();
  /** Pages fetched again whose content changed, and those found unchanged (a 304, or the same digest). */
  private final AtomicLong recrawlsChanged = new AtomicLong();
  private final AtomicLong recrawlsUnchanged = new AtomicLong();
  /** URLs refused for their query ({@link Gatekeeper#QUERY_REFUSED}): the default refuses every query. */
  private final AtomicLong queryRefusals = new AtomicLong();

  public RunSummary() {
    for (Outcome o : Outcome.values()) {
      counts.put(o, new AtomicLong());
      pageCounts.put(o, new AtomicLong());
    }
  }

  public void count(CrawlAction action) {
    counts.get(action.outcome()).getAndIncrement();
    switch (action.kind()) {
      case PAGE -> pageCounts.get(action.outcome()).getAndIncrement();
      case ROBOTS -> robots[FileAnswer.of(action).ordinal()].getAndIncrement();
      case SITEMAP -> sitemaps[FileAnswer.of(action).ordinal()].getAndIncrement();
    }
    bytes.getAndAdd(action.bytes());
    if (action.outcome() == Outcome.BLOCKED_URL_BY_LOCAL_POLICY
        && action.reason().filter(Gatekeeper.QUERY_REFUSED::equals).isPresent()) {
      queryRefusals.getAndIncrement();
    }
  }

  /** Actions of every kind (pages, robots.txt, sitemaps) with this outcome. */
  public long count(Outcome outcome) {
    return counts.get(outcome).get();
  }

  /**
   * Page actions with this outcome: a robots.txt or a sitemap that is not there (404 at the default
   * location) is no failed page, and is counted on lines of its own.
   */
  public long pageCount(Outcome outcome) {
    return pageCounts.get(outcome).get();
  }

  /**
   * Whether {@code action} is a robots.txt or sitemap request answered "not here" (a 4xx other than 401,
   * 403 and 429): what a site without those files answers, no failure of the site.
   */
  public static boolean absentFile(CrawlAction action) {
    return action.kind() != CrawlAction.Kind.PAGE && FileAnswer.of(action) == FileAnswer.ABSENT;
  }

  /** robots.txt and sitemap requests answered "not here" ({@link #absentFile}). */
  public long absentFiles() {
    return robots[FileAnswer.ABSENT.ordinal()].get() + sitemaps[FileAnswer.ABSENT.ordinal()].get();
  }

  /** Actions that were robots.txt or sitemap requests. */
  public long fileActions() {
    long n = 0;
    for (int i = 0; i < robots.length; i++) n += robots[i].get() + sitemaps[i].get();
    return n;
  }

  public long actions() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public long robotsFetches() {
    long n = 0;
    for (AtomicLong c : robots) n += c.get();
    return n;
  }

  /**
   * robots.txt fetches answered 401 or 403: RFC 9309 reads them as "no rules" (allow all), which a
   * site may not mean, so they are counted apart.
   */
  public long robotsDenied() {
    return robots[FileAnswer.DENIED.ordinal()].get();
  }

  /** The most notes kept (and shown) per run; further ones are only counted. */
  static final int MAX_NOTES = 20;

  /**
   * Adds a line for the operator at the end of the run, such as a seed that redirects out of scope.
   * Crawled strings in it are escaped when rendered.
   */
  public void note(String line) {
    if (noteCount.incrementAndGet() <= MAX_NOTES) notes.add(line);
  }

  /** The notes of the run so far, in order, at most {@link #MAX_NOTES}. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** A page crawled before was fetched again: counts whether its content changed. */
  public void recrawled(Observation seen) {
    switch (seen) {
      case CHANGED -> recrawlsChanged.getAndIncrement();
      case UNCHANGED -> recrawlsUnchanged.getAndIncrement();
      default -> { } // no content compared: the outcome lines count it
    }
  }

  /** Counts new URLs the store did not keep, their origin full. */
  public void urlsNotKept(long count) {
    urlsNotKept.addAndGet(count);
  }

  /** New URLs the store did not keep in this run, their origin full. */
  public long urlsNotKept() {
    return urlsNotKept.get();
  }

  public long bytes() {
    return bytes.get();
  }

  /**
   * One line per outcome of the pages that happened, a line for robots.txt and one for sitemaps by what
   * their answers meant, then the totals, for people.
   */
  public String render(Duration elapsed) {
    StringBuilder sb = new StringBuilder();
    for (Outcome o : Outcome.values()) {
      long n = pageCount(o);
      if (n > 0) sb.append(String.format("%-28s %,d%n", o.name(), n));
    }
    long changed = recrawlsChanged.get();
    long unchanged = recrawlsUnchanged.get();
    if (changed + unchanged > 0) {
      // The outcome lines do not tell a first fetch from a recrawl, nor a changed body from the same one.
      sb.append(String.format("%-28s %,d (%,d changed, %,d unchanged)%n", "of them recrawled", changed + unchanged,
          changed, unchanged));
    }
    appendFiles(sb, "robots.txt", robots, "absent (4xx: no rules)", "denied (401/403: read as allow-all)",
        "unreachable (DNS, 5xx, 429 or no whole answer)");
    // A sitemap denied is one not read: robots.txt's reading of 401/403 is not a sitemap's.
    appendFiles(sb, "sitemaps", sitemaps, "absent (4xx)", "denied (401/403)", "failed");
    double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
    for (String note : notes) sb.append("note: ").append(TerminalText.escape(note)).append('\n');
    if (noteCount.get() > MAX_NOTES) {
      sb.append(String.format("note: and %,d more like these%n", noteCount.get() - MAX_NOTES));
    }
    long refused = count(Outcome.BLOCKED_BY_NETWORK_POLICY);
    if (refused > 0) {
      // What a first crawl of a server on this machine or the local network meets: say the setting.
      sb.append(String.format("note: %,d URL%s not requested: %s host%s resolve%s only to loopback, private or other "
          + "non-public addresses, which the network policy refuses (network.allow_private_addresses: true "
          + "allows them; logs/crawl.jsonl names each)%n", refused, refused == 1 ? "" : "s", refused == 1 ? "its" : "their",
          refused == 1 ? "" : "s", refused == 1 ? "s" : ""));
    }
    long queries = queryRefusals.get();
    if (queries > 0) {
      // Refusing every query is the default (a trap's calendar and session ids are queries): say how to allow.
      sb.append(String.format("note: %,d URL%s with a query not requested: no url_query_parameters rule allows"
          + " %s parameters (none does by default; a rule names a URL prefix and the parameters to crawl, or"
          + " allow: [\"*\"] any: docs/configuration.md)%n", queries, queries == 1 ? "" : "s", queries == 1 ? "its" : "their"));
    }
    long files = fileActions();
    sb.append(String.format("%-28s %,d (%,d of them robots.txt and sitemaps) in %.1f s, %.1f actions/s, %,d bytes%n",
        "TOTAL", actions(), files, seconds, actions() / seconds, bytes()));
    return sb.toString();
  }

  private static void appendFiles(StringBuilder sb, String name, AtomicLong[] counters, String absent, String denied,
      String failed) {
    long total = 0;
    for (AtomicLong c : counters) total += c.get();
    if (total == 0) return;
    StringBuilder parts = new StringBuilder();
    String[] words = {"read", absent, denied, "redirected", "refused before the request", failed};
    for (FileAnswer answer : FileAnswer.values()) {
      long n = counters[answer.ordinal()].get();
      if (n == 0) continue;
      if (!parts.isEmpty()) parts.append(", ");
      parts.append(String.format("%,d %s", n, words[answer.ordinal()]));
    }
    sb.append(String.format("%-28s %,d: %s%n", name, total, parts));
  }

  private static AtomicLong[] newCounters() {
    AtomicLong[] counters = new AtomicLong[FileAnswer.values().length];
    for (int i = 0; i < counters.length; i++) counters[i] = new AtomicLong();
    return counters;
  }

  /** What a robots.txt or sitemap request's answer meant, for the summary's lines. */
  private enum FileAnswer {
    READ,
    ABSENT,
    DENIED,
    REDIRECTED,
    REFUSED,
    FAILED;

    static FileAnswer of(CrawlAction action) {
      int status = action.httpStatus();
      return switch (action.outcome()) {
        // A sitemap URL that answered something else (an HTML soft 404, XML of another kind) was not read.
        case FETCHED, NOT_MODIFIED -> action.kind() == CrawlAction.Kind.SITEMAP
            && action.reason().filter(r -> r.startsWith("not a sitemap")).isPresent() ? FAILED : READ;
        // A sitemap cut short is read as far as it came; a robots.txt cut short is not trusted at all.
        case TRUNCATED -> action.kind() == CrawlAction.Kind.SITEMAP ? READ : FAILED;
        case REDIRECT -> REDIRECTED;
        case BLOCKED_BY_ROBOTS_TXT, BLOCKED_URL_BY_LOCAL_POLICY, BLOCKED_BY_NETWORK_POLICY, OUT_OF_SCOPE -> REFUSED;
        case HTTP_ERROR -> status == 401 || status == 403 ? DENIED
            : status >= 400 && status < 500 && status != 429 ? ABSENT : FAILED;
        default -> FAILED;
      };
    }
  }
}
