package org.forager.crawl;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.forager.config.Durations;
import org.forager.frontier.Scheduler;
import org.forager.policy.Blocklist;
import org.forager.policy.Gatekeeper;
import org.forager.policy.Verdict;
import org.forager.recrawl.Observation;
import org.forager.record.ControlRecord;
import org.forager.record.CrawlLog;
import org.forager.store.Block;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlStore;
import org.forager.store.OriginLeases;
import org.forager.store.UrlRecord;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * An operator's hold on a running crawl ({@code forager ctl}, the status page's buttons; docs/status.md,
 * "Control"): pause and resume it; pause one origin or set its delay; block a host (no request of any
 * kind to it or a host under it, kept in the crawl database across runs) and unblock it; add seeds;
 * stop. Each order is written to the crawl log ({@link ControlRecord}) and then carried out; none
 * lets a request go sooner than politeness allows (a delay set is floored by robots.txt's
 * Crawl-delay, paused turns in flight finish their one request).
 *
 * <p>Orders about the whole crawl and blocks hold before, during and after a run; pausing an origin,
 * setting its delay and adding seeds need a run under way ({@link IllegalStateException} otherwise).
 * Bad input is an {@link IllegalArgumentException} with a one-line message. Thread-safe.
 */
public final class CrawlControl {

  /** A paused origin's turn comes back this often to look again; resuming brings it at once. */
  static final long PAUSED_ORIGIN_RECHECK_NANOS = TimeUnit.MINUTES.toNanos(1);
  /** The longest delay an operator may set: beyond it, block the host. */
  public static final Duration MAX_DELAY = Duration.ofDays(1);
  /** Seeds one order may add. */
  public static final int MAX_SEEDS = 100;
  private static final Pattern WHO = Pattern.compile("[a-z][a-z0-9-]{0,15}");

  /** What the operator sees of the crawl's control. */
  public record State(boolean paused, int turnsInFlight, List<Block> blocks, List<String> pausedOrigins,
      Map<String, Long> delaysMillis) {}

  /** What became of one seed: {@code added}, {@code due now}, {@code already waiting}, or {@code refused: why}. */
  public record SeedResult(String url, String result) {}

  /** The parts of the run in progress the orders reach. */
  record Run(Scheduler scheduler, Gatekeeper gatekeeper, UrlGate extraGate, KnownOrigins origins,
      Consumer<Origin> wake, Map<Origin, OriginCrawler> crawlers) {}

  private final CrawlStore store;
  private final Function<Origin, Duration> configuredMinDelay;
  private final CrawlLog log;
  private final Clock clock;
  private final Runnable stop;
  private final Blocklist blocklist = new Blocklist();
  private final Set<Origin> pausedOrigins = ConcurrentHashMap.newKeySet();
  private final Map<Origin, Long> delays = new ConcurrentHashMap<>();
  /** The blocks, by host; guarded by {@code this}, as are the fields below. */
  private final TreeMap<String, Block> blocks = new TreeMap<>();
  private boolean paused;
  private Run run;

  /** Reads the blocks kept in {@code store}. */
  CrawlControl(CrawlStore store, CrawlLog log, Clock clock, Runnable stop,
      Function<Origin, Duration> configuredMinDelay) {
    this.store = store;
    this.log = log;
    this.clock = clock;
    this.stop = stop;
    this.configuredMinDelay = configuredMinDelay;
    refreshBlocks();
  }

  /** The min_delay the crawl's configuration gives the origin: what a delay set below it undercuts. */
  public Duration configuredMinDelay(Origin origin) {
    return configuredMinDelay.apply(origin);
  }

  /** The block in force on {@code host} itself (as {@link #block} would normalize it), if any. */
  public synchronized Optional<Block> blockOf(String host) {
    return Optional.ofNullable(blocks.get(host(host)));
  }

  // --- read by the crawl

  /** The hosts blocked now, for the crawl's {@link Gatekeeper}. */
  Blocklist blocklist() {
    return blocklist;
  }

  /** Whether the operator blocked the origin's host (or a domain above it). */
  boolean blocks(Origin origin) {
    return !blocklist.isEmpty() && blocklist.covering(origin.host()).isPresent();
  }

  /** Whether the whole crawl is paused. */
  synchronized boolean paused() {
    return paused;
  }

  boolean paused(Origin origin) {
    return !pausedOrigins.isEmpty() && pausedOrigins.contains(origin);
  }

  /** The delay the operator set for the origin, if any. */
  OptionalLong delayMillis(Origin origin) {
    if (delays.isEmpty()) return OptionalLong.empty();
    Long millis = delays.get(origin);
    return millis == null ? OptionalLong.empty() : OptionalLong.of(millis);
  }

  /** The run under way takes the orders from now on (a pause given before it holds). */
  synchronized void attach(Run run) {
    this.run = run;
    run.scheduler().pause(paused);
  }

  synchronized void detach() {
    run = null;
  }

  /** Reads the blocks from the store again: a fleet's other processes block too. */
  synchronized void refreshBlocks() {
    Set<String> before = Set.copyOf(blocks.keySet());
    blocks.clear();
    for (Block b : store.blocks()) blocks.put(b.host(), b);
    blocklist.replace(blocks.keySet());
    // Lifted by another process of the fleet: this one may have put origins under it to rest since.
    for (String lifted : before) {
      if (!blocks.containsKey(lifted)) endRestsUnder(lifted);
    }
  }

  /**
   * In a fleet, the origins under a lifted block that rest ({@link OriginLeases.Release.Resting}, put
   * there by a process that found them blocked) are free for any claim at once, not in a minute: a run
   * whose other work ended meanwhile would end without them.
   */
  private void endRestsUnder(String host) {
    Optional<OriginLeases> leases = store.leases();
    if (leases.isEmpty()) return;
    Blocklist lifted = new Blocklist();
    lifted.replace(List.of(host));
    leases.get().endRests(origin -> lifted.covering(origin.host()).isPresent() && !blocks(origin));
  }

  // --- the orders

  /** What the operator has ordered, now. */
  public synchronized State state() {
    Map<String, Long> delayed = new TreeMap<>();
    delays.forEach((origin, millis) -> delayed.put(origin.toString(), millis));
    return new State(paused, run == null ? 0 : run.scheduler().turnsInFlight(), List.copyOf(blocks.values()),
        pausedOrigins.stream().map(Origin::toString).sorted().toList(), delayed);
  }

  /**
   * Pauses the crawl: no new request starts; the fetches in flight finish (how many: {@link
   * State#turnsInFlight}). Nothing is lost: {@link #resume} goes on where it stopped.
   */
  public synchronized void pause(String by) {
    write(ControlRecord.of(clock.instant(), "pause", who(by), Optional.empty()));
    paused = true;
    if (run != null) run.scheduler().pause(true);
  }

  public synchronized void resume(String by) {
    write(ControlRecord.of(clock.instant(), "resume", who(by), Optional.empty()));
    paused = false;
    if (run != null) run.scheduler().pause(false);
  }

  /**
   * Whether {@code origin} is in the crawl's scope (a seed's origin, or one taken on while crawling):
   * an order for another one is kept all the same (the origin may come in later), and its answer says
   * so, since a mistyped origin would otherwise be an order that silently does nothing.
   */
  public boolean inScope(Origin origin) {
    return !store.inScope(List.of(origin)).isEmpty();
  }

  /** Pauses one origin of the run: it sends nothing more (its request in flight ends) until resumed. */
  public synchronized Origin pauseOrigin(String origin, String by) {
    requireRun();
    Origin o = origin(origin);
    write(ControlRecord.of(clock.instant(), "pause-origin", who(by), Optional.of(o.toString())));
    pausedOrigins.add(o);
    return o;
  }

  public synchronized Origin resumeOrigin(String origin, String by) {
    Run r = requireRun();
    Origin o = origin(origin);
    write(ControlRecord.of(clock.instant(), "resume-origin", who(by), Optional.of(o.toString())));
    pausedOrigins.remove(o);
    hurry(r, o);
    return o;
  }

  /**
   * Sets one origin's delay for the rest of the run, in place of the one min_delay, the response
   * times and max_delay make; never below its robots.txt Crawl-delay or a rate-limit penalty, which
   * still hold. Empty {@code delay}: back to the computed delay.
   */
  public synchronized Origin setDelay(String origin, Optional<Duration> delay, String by) {
    Run r = requireRun();
    Origin o = origin(origin);
    if (delay.isPresent() && delay.get().compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException("a delay of at most " + Durations.format(MAX_DELAY)
          + " (to stop crawling a site, block it)");
    }
    OptionalLong millis = delay.map(d -> OptionalLong.of(d.toMillis())).orElse(OptionalLong.empty());
    // The log first: the audit reads the delay from it before the origin's next request.
    write(new ControlRecord(clock.instant(), "set-delay", who(by), Optional.of(o.toString()), millis,
        Optional.of(delay.map(Durations::format).orElse("default"))));
    if (millis.isPresent()) delays.put(o, millis.getAsLong());
    else delays.remove(o);
    hurry(r, o); // a shorter delay counts from the origin's last request, not from its old next turn
    return o;
  }

  /**
   * Blocks a host and every host under it, at once and across runs: no request of any kind (robots.txt,
   * sitemaps, pages, redirects' targets) goes to it from now on; a request in flight ends. Its URLs
   * are left as they are, for an unblock.
   *
   * @param host a host name, a domain, an IP address, or a URL (its host is blocked)
   * @return the host as blocked (normalized)
   */
  public synchronized String block(String host, String by) {
    String name = host(host);
    Block block = new Block(name, clock.instant(), who(by));
    write(ControlRecord.of(block.since(), "block", block.by(), Optional.of(name)));
    store.block(block);
    blocks.put(name, block);
    blocklist.replace(blocks.keySet());
    return name;
  }

  /** What a block of {@code host} (as {@link #block} returns it) covers besides itself, for its answer. */
  public static String alsoBlocked(String host) {
    boolean address = host.startsWith("[") || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    return address ? "" : " and every host under it"; // an IP address covers itself only
  }

  /**
   * Lifts a block: the origins under it are crawled again (in a run under way, as soon as they have
   * work).
   *
   * @return whether the host was blocked
   */
  public synchronized boolean unblock(String host, String by) {
    String name = host(host);
    boolean was = blocks.containsKey(name);
    write(ControlRecord.of(clock.instant(), "unblock", who(by), Optional.of(name))
        .withResult(was ? "unblocked" : "was not blocked"));
    store.unblock(name);
    blocks.remove(name);
    blocklist.replace(blocks.keySet());
    if (was) endRestsUnder(name);
    if (was && run != null) wakeOriginsUnder(name, run);
    return was;
  }

  /**
   * Makes every URL whose last crawl failed (no answer, a timeout, a name that did not resolve, an HTTP
   * error other than 404 and 410 after its retries: a 5xx, a 429, a 403) due now rather than after its
   * back-off (2, 4, 8 weeks with the default {@code recrawl.interval}): once what failed is mended, its
   * own network or the sites'. Only those of {@code host} and the hosts under it when given. One scan of
   * the store's URLs, each made due as it is met (nothing held but the scan); a running crawl takes
   * their origins up as they come due.
   *
   * @param host a host name, a domain, an IP address, or a URL (its host)
   * @return how many URLs were made due
   */
  public long retryFailed(Optional<String> host, String by) {
    return makeDue(host, "retry-failed", by, u -> {
      CrawlRecord last = u.lastCrawl().orElseThrow();
      return Observation.of(last.outcome(), last.httpStatus(), Optional.empty(), Optional.empty()) == Observation.FAILED;
    });
  }

  /**
   * Makes every URL crawled before due now, whatever its recrawl interval (a site changed, an
   * operator wants it fresh): as {@link #retryFailed}, for every crawled URL. Each is fetched again
   * as a recrawl is, with a conditional GET where the last answer gave validators.
   *
   * @param host a host name, a domain, an IP address, or a URL (its host)
   * @return how many URLs were made due
   */
  public long recrawl(Optional<String> host, String by) {
    return makeDue(host, "recrawl", by, u -> true);
  }

  /** One scan: each crawled URL {@code which} accepts (of {@code host} when given) made due now. */
  private long makeDue(Optional<String> host, String action, String by, Predicate<UrlRecord> which) {
    Optional<String> name = host.map(CrawlControl::host);
    Blocklist under = new Blocklist();
    name.ifPresent(n -> under.replace(List.of(n)));
    Instant now = clock.instant();
    Run r;
    synchronized (this) {
      r = run;
    }
    long[] moved = {0};
    Origin[] lastWoken = {null};
    store.forEachUrl(u -> {
      if (u.lastCrawl().isEmpty() || !u.nextFetchAt().isAfter(now) || !which.test(u)) return;
      Origin origin = Origin.ofUrl(u.url());
      if (name.isPresent() && under.covering(origin.host()).isEmpty()) return;
      if (!store.bringForward(u.url(), now)) return;
      moved[0]++;
      // The URLs come in URL order, an origin's together: each woken once.
      if (r != null && !origin.equals(lastWoken[0])) r.wake().accept(origin);
      lastWoken[0] = origin;
    });
    write(ControlRecord.of(now, action, who(by), name).withResult(moved[0] + " URLs due now"));
    return moved[0];
  }

  /** The answer to {@link #recrawl}, for people. */
  public static String recrawlAnswer(long due, Optional<String> host) {
    String of = host.map(h -> " (of " + host(h) + " and the hosts under it)").orElse("");
    return String.format("%,d crawled URL%s made due now%s", due, due == 1 ? "" : "s", of);
  }

  /** The answer to {@link #retryFailed}, for people. */
  public static String retryAnswer(long due, Optional<String> host) {
    String of = host.map(h -> " (of " + host(h) + " and the hosts under it)").orElse("");
    // Counted: those moved. A failed URL already due (its back-off over) is crawled as it is.
    if (due == 0) return "no URL whose last request failed was waiting out its back-off" + of + ": none made due";
    return String.format("%,d URL%s whose last request failed made due now%s", due, due == 1 ? "" : "s", of);
  }

  /**
   * Adds seeds to the run, each through every gate a page passes (scope, blocks, do_not_crawl, the
   * trap limits, the embedding program's gate); robots.txt still decides when it is fetched. A
   * known URL already crawled is made due now.
   */
  public List<SeedResult> addSeeds(List<String> urls, String by) {
    String who = who(by);
    if (urls.isEmpty() || urls.size() > MAX_SEEDS) {
      throw new IllegalArgumentException("give 1 to " + MAX_SEEDS + " URLs at once, not " + urls.size());
    }
    Run r;
    synchronized (this) {
      r = requireRun();
    }
    List<SeedResult> results = new ArrayList<>();
    for (String raw : urls) {
      SeedResult result = addSeed(raw, r);
      synchronized (this) {
        write(ControlRecord.of(clock.instant(), "add-seed", who, Optional.of(result.url()))
            .withResult(result.result()));
      }
      results.add(result);
    }
    return results;
  }

  /** Ends the run after the fetches in flight, as SIGTERM does. */
  public synchronized void stop(String by) {
    write(ControlRecord.of(clock.instant(), "stop", who(by), Optional.empty()));
    stop.run();
  }

  // --- insides

  private SeedResult addSeed(String raw, Run r) {
    Optional<String> normalized = UrlNormalizer.normalize(raw.strip());
    if (normalized.isEmpty()) return new SeedResult(raw, "refused: not an http(s) URL");
    String url = normalized.get();
    if (r.gatekeeper().check(url, 0) instanceof Verdict.Rejected rejected) {
      return new SeedResult(url, "refused: " + rejected.reason());
    }
    Optional<String> refused = r.extraGate().refuse(url, 0);
    if (refused.isPresent()) return new SeedResult(url, "refused: " + refused.get());
    if (!r.origins().admit(url)) return new SeedResult(url, "refused: scope.max_origins reached");
    String result;
    if (store.addCandidates(List.of(Candidate.seed(url))) == 1) {
      result = "added";
    } else {
      Optional<UrlRecord> known = store.url(url);
      boolean crawled = known.isPresent() && known.get().fetchCount() > 0;
      result = crawled && store.bringForward(url, clock.instant()) ? "due now" : "already waiting";
    }
    r.wake().accept(Origin.ofUrl(url));
    return new SeedResult(url, result);
  }

  /** Brings the origin's next turn forward (it then sees the orders, and waits what its delay still asks). */
  private static void hurry(Run r, Origin o) {
    OriginCrawler crawler = r.crawlers().get(o);
    if (crawler != null) r.scheduler().hurry(crawler, System.nanoTime());
  }

  /** Wakes the origins of the scope under an unblocked name, reading the scope page by page, off this thread. */
  private void wakeOriginsUnder(String name, Run r) {
    Blocklist unblocked = new Blocklist();
    unblocked.replace(List.of(name));
    Thread.ofVirtual().name("forager-unblock").start(() -> {
      Optional<Origin> after = Optional.empty();
      while (true) {
        List<Origin> page = store.scopeOrigins(after, 1_000);
        if (page.isEmpty()) return;
        for (Origin o : page) {
          if (unblocked.covering(o.host()).isPresent() && !blocks(o)) r.wake().accept(o);
        }
        after = Optional.of(page.getLast());
      }
    });
  }

  private Run requireRun() {
    if (run == null) throw new IllegalStateException("no run under way (starting, or over): try again once it runs");
    return run;
  }

  private void write(ControlRecord record) {
    log.write(record);
  }

  private static String who(String by) {
    if (!WHO.matcher(by).matches()) throw new IllegalArgumentException("bad author of an order: " + by);
    return by;
  }

  /** An origin as given ({@code https://example.org}, or any URL of it). */
  static Origin origin(String text) {
    String t = text.strip();
    return UrlNormalizer.normalize(t).map(Origin::ofUrl).orElseThrow(() -> {
      // A host name alone (ctl set-delay www.example.org 30s): an origin has a scheme; say which to write.
      boolean host = !t.contains(":") && !t.contains("/") && UrlNormalizer.normalize("https://" + t).isPresent();
      return new IllegalArgumentException("not an http(s) origin: \"" + abbreviate(text) + "\""
          + (host ? " (an origin has a scheme: https://" + abbreviate(t) + " or http://" + abbreviate(t) + ")" : ""));
    });
  }

  /** A host as an order names it (block, unblock, retry-failed): a name, a domain, an IP address (a port is dropped), or a URL. */
  public static String host(String text) {
    String t = text.strip();
    if (t.indexOf('*') >= 0) {
      // A '*' is a character of a host name to the URL parser: "*.example.org" would block no site at all.
      throw new IllegalArgumentException("\"" + abbreviate(text) + "\" has a wildcard: write the domain alone, like"
          + " example.org, which covers every host under it");
    }
    if (t.contains("://")) return origin(t).host();
    // host:port or [v6]:port: the host is blocked on every port.
    int colon = t.startsWith("[") ? t.indexOf("]:") + 1 : t.indexOf(':') == t.lastIndexOf(':') ? t.indexOf(':') : -1;
    if (colon > 0 && colon < t.length() - 1 && t.substring(colon + 1).chars().allMatch(Character::isDigit)) {
      t = t.substring(0, colon);
    }
    return UrlNormalizer.host(t).filter(h -> h.length() <= Block.MAX_HOST_LENGTH)
        .orElseThrow(() -> new IllegalArgumentException("not a host, domain or URL: \"" + abbreviate(text) + "\""));
  }

  private static String abbreviate(String s) {
    String clean = s.replaceAll("\\p{Cntrl}", "?");
    return clean.length() <= 100 ? clean : clean.substring(0, 100) + "...";
  }
}
