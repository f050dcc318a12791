package org.forager.crawl;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.forager.fetch.FetchResult;

/**
 * Whether the crawler's own network works, judged from every request's result. When requests to
 * addresses (address and port) that answered within {@value #RECENT_MINUTES} minutes fail before any
 * server could answer (no connection made, or the name servers failed), with no answer from anywhere in
 * between, and they are at least {@value #GOOD_TARGETS} and half of the addresses that answered in the
 * last minute, in a crawl that had answers from {@value #KNOWN_GOOD} addresses or more in that minute,
 * the fault is the crawler's network (a cable, a router, the resolver), not the sites'. Then the crawl
 * holds: one request every {@link #probeNanos} tries the network, and the first answer of any server
 * ends the hold, or, at the latest, {@value #MAX_HOLD_MINUTES} minutes on (a network down longer is
 * charged as before; a few sites that died must never hold a crawl for ever). The failures of a held
 * crawl cost the URLs and origins nothing ({@link PageStep}, {@link RobotsStep}, {@link SitemapStep}):
 * without it, a ten-minute outage gave up every origin of the working set and put its URLs off by weeks.
 *
 * <p>Only addresses that answered lately count, so a seed list of dead sites (refused, unreachable,
 * timing out: the usual share of an old link list) never looks like an outage, however many fail in
 * a row, and a crawl of fewer sites than {@value #KNOWN_GOOD} never holds. Until the first answer of
 * the run, though, no address is known good: a network down from the start (a laptop offline, a
 * resolver that does not answer) holds the crawl once {@value #GOOD_TARGETS} hosts failed before any
 * server (no route, no answer to the connect, the name servers failing: not a refused connect, which a
 * host sent) and none answered; without it the run gave up every origin (robots.txt unreachable) and ended
 * having crawled nothing, and charged the pages of origins whose robots.txt was still fresh. Dead seeds failing before the first live one answers (a refused
 * connect is quicker than a page) make such a hold too, for the moment that answer takes: a hold from
 * the start is announced only at its first probe, so a short one says nothing. Any answer counts as the
 * network working: an HTTP response of any status, a TLS or protocol failure, a reset (a server was
 * reached), a name that does not exist (the name servers answered). A timeout on a connection made
 * counts neither way: a slow server, or a network that went dark under it.
 * Thread-safe; the crawl's turns read {@link #mayRequest} on their fast path, one volatile read while
 * the network works, and an answer costs a map read or two (a write at most once a second an address).
 */
final class NetworkHealth {

  /** Addresses known good that must fail, with no answer in between, to make an outage. */
  static final int GOOD_TARGETS = 3;
  /** How recent an answer makes an address known good. */
  static final long RECENT_MINUTES = 10;
  /** Addresses that must have answered in the last minute for the crawl to hold at all. */
  static final int KNOWN_GOOD = 10;
  /** The longest hold: then the crawl goes on, its failures charged as usual. */
  static final long MAX_HOLD_MINUTES = 10;
  private static final long ACTIVE_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final long MAX_HOLD_NANOS = TimeUnit.MINUTES.toNanos(MAX_HOLD_MINUTES);
  /** Addresses (and host names) remembered as answering at most; forgotten all at once beyond. */
  static final int REMEMBERED = 65_536;
  private static final long RECENT_NANOS = TimeUnit.MINUTES.toNanos(RECENT_MINUTES);
  /** How stale a remembered answer may get before it is written again: small against RECENT_MINUTES. */
  private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final long probeNanos;
  private final Consumer<String> note;
  /** When each address (and host name) last answered ({@link System#nanoTime()}). */
  private final ConcurrentHashMap<Object, Long> answeredAt = new ConcurrentHashMap<>();
  private volatile boolean down;
  /** Whether any server answered in this run. */
  private volatile boolean everAnswered;
  /** Hosts and addresses that failed before any server while none has answered yet; guarded by {@code this}. */
  private final Set<Object> failingFromStart = new HashSet<>();
  /** Whether the hold now was announced on the terminal (one from the start is, at its first probe). */
  private boolean announced;
  private String announcement;
  /** Whether failures of good addresses are counting towards an outage; written under {@code this}. */
  private volatile boolean failing;
  /** The good addresses that failed since the last answer; guarded by {@code this}, as are those below. */
  private final Set<Object> goodFailing = new HashSet<>();
  /** How many of them make an outage in this streak, once it has GOOD_TARGETS (0: not judged yet). */
  private int streakThreshold;
  private long downSince;
  private long nextProbeAt;

  /**
   * @param probeNanos how often a held crawl tries one request
   * @param note where each outage is noted for the run's summary once it is over
   */
  NetworkHealth(long probeNanos, Consumer<String> note) {
    this.probeNanos = probeNanos;
    this.note = note;
  }

  /** Whether the crawl holds for an outage now. */
  boolean down() {
    return down;
  }

  /**
   * Whether a turn may make its request now: always while the network works; during an outage, one
   * turn every {@link #probeNanos}, the probe.
   */
  boolean mayRequest() {
    if (!down) return true;
    synchronized (this) {
      long now = System.nanoTime();
      if (down && now - downSince >= MAX_HOLD_NANOS) {
        down = false;
        endStreak();
        // A network that never answered holds once: from now on its failures are charged as usual too.
        everAnswered = true;
        failingFromStart.clear();
        Notice.printf("forager: no server answered for %d minutes: the crawl goes on without holding, its failures"
            + " charged as usual", MAX_HOLD_MINUTES);
        note.accept("the network looked down for " + MAX_HOLD_MINUTES + " minutes and the crawl held that long;"
            + " then it went on, its failures charged as usual");
      }
      if (!down || now - nextProbeAt >= 0) {
        nextProbeAt = now + probeNanos;
        if (down && !announced) announce();
        return true;
      }
      return false;
    }
  }

  /**
   * When a held turn should look again ({@link System#nanoTime()}): after the next probe, spread over
   * a probe interval so that the held turns do not all wake at once.
   */
  long nextProbeAt() {
    long at;
    synchronized (this) {
      at = nextProbeAt;
    }
    return at + ThreadLocalRandom.current().nextLong(Math.max(1, probeNanos));
  }

  /**
   * One request's result, sent to {@code address} (null when it had none: the lookup failed) of {@code
   * host}. Returns whether the crawl was held for an outage when it came: such a failure is the
   * network's, not the URL's.
   */
  boolean observe(InetSocketAddress address, String host, FetchResult result) {
    long now = System.nanoTime();
    if (result instanceof FetchResult.Failure timeout && timeout.kind() == FetchResult.FailureKind.TIMEOUT
        && !timeout.unconnected()) {
      return down; // a slow server, or a network gone dark under a connection: neither way
    }
    if (!(result instanceof FetchResult.Failure f && failedBeforeAnyServer(f))) {
      if (address != null) remember(address, now);
      remember(host, now);
      if (down || failing || !everAnswered) answered(address != null ? address : host, now);
      return false;
    }
    // A failed lookup is told by the name, a refused connect by the address.
    Object target = f.kind() == FetchResult.FailureKind.DNS || address == null ? host : address;
    Long answered = answeredAt.get(target);
    boolean good = answered != null && now - answered < RECENT_NANOS;
    synchronized (this) {
      if (down) return true;
      if (!everAnswered) { // nothing known good yet: hosts failing with no answer from anywhere
        // By host (one host's many addresses, say AAAA ones without an IPv6 route, are one), and not a
        // refused connect: a host sent that reset, so the network works and the site is dead.
        if (refused(f)) return false;
        failingFromStart.add(host);
        if (failingFromStart.size() < GOOD_TARGETS) return false;
        hold(now, String.format("forager: no server has answered since the crawl started and %d hosts take no"
            + " request (last: %s %s): the network looks down; the crawl holds, trying one request every %d s",
            failingFromStart.size(), name(target), f.message(), TimeUnit.NANOSECONDS.toSeconds(probeNanos)), false);
        return true;
      }
      if (!good) return false; // a site that never answered lately: dead, not the network
      failing = true;
      goodFailing.add(target);
      if (goodFailing.size() < GOOD_TARGETS) return false;
      if (streakThreshold == 0) streakThreshold = threshold(now); // one scan a streak that gets this far
      if (goodFailing.size() < streakThreshold) return false;
      hold(now, String.format("forager: %d addresses that answered lately now take no request (last: %s %s): the"
          + " network looks down; the crawl holds, trying one request every %d s", goodFailing.size(), name(target),
          f.message(), TimeUnit.NANOSECONDS.toSeconds(probeNanos)), true);
      return true;
    }
  }

  /** The crawl holds from {@code now}; {@code line} goes to the terminal now or at the first probe. Under {@code this}. */
  private void hold(long now, String line, boolean announceNow) {
    down = true;
    downSince = now;
    nextProbeAt = now + probeNanos;
    announcement = line;
    announced = false;
    if (announceNow) announce();
  }

  private void announce() {
    announced = true;
    Notice.println(announcement);
  }

  /** Notes that {@code key} answered: a map write at most once a second a key, the usual page none. */
  private void remember(Object key, long now) {
    Long last = answeredAt.get(key);
    if (last != null && now - last < REFRESH_NANOS) return;
    if (last == null && answeredAt.size() >= REMEMBERED) answeredAt.clear();
    answeredAt.put(key, now);
  }

  /**
   * How many good addresses failing make an outage: half of those that answered in the last minute, at
   * least GOOD_TARGETS; none (never) when fewer than KNOWN_GOOD answered: a few sites dying together
   * look just like an outage, and must not hold the crawl.
   */
  private int threshold(long now) {
    int active = 0;
    for (var e : answeredAt.entrySet()) {
      if (e.getKey() instanceof InetSocketAddress && now - e.getValue() < ACTIVE_NANOS) active++;
    }
    return active < KNOWN_GOOD ? Integer.MAX_VALUE : Math.max(GOOD_TARGETS, active / 2);
  }

  /** The run ends: an outage it ended in is noted for the summary, as a hold that ended would be. */
  synchronized void runEnded() {
    if (!down || !announced) return;
    note.accept("the run ended while the network looked down (for " + TimeUnit.NANOSECONDS.toSeconds(
        System.nanoTime() - downSince) + " s): the requests it held are due for the next run");
  }

  private synchronized void answered(Object target, long now) {
    everAnswered = true;
    failingFromStart.clear();
    endStreak();
    if (!down) return;
    down = false;
    if (!announced) return; // a hold from the start shorter than a probe interval: dead seeds, not the network
    long seconds = TimeUnit.NANOSECONDS.toSeconds(now - downSince);
    Notice.printf("forager: the network answers again (%s answered) after %d s of outage: the crawl goes on",
        name(target), seconds);
    note.accept("the network was down for " + seconds + " s: the crawl held (one request every "
        + TimeUnit.NANOSECONDS.toSeconds(probeNanos) + " s), its failures cost no URL a retry and no origin patience");
  }

  /** No failures count towards an outage any more: an answer came, or a hold ended. Under {@code this}. */
  private void endStreak() {
    failing = false;
    goodFailing.clear();
    streakThreshold = 0;
  }

  private static String name(Object target) {
    return target instanceof InetSocketAddress a ? a.getAddress().getHostAddress() + ":" + a.getPort()
        : target.toString();
  }

  /** A connect the host refused (a reset): the network reached it. */
  private static boolean refused(FetchResult.Failure f) {
    return f.kind() == FetchResult.FailureKind.NETWORK && f.message() != null && f.message().contains("Connection refused");
  }

  /**
   * A failure no server had a part in: no connection could be made to the address, or the name servers
   * failed (not a name that does not exist: they answered that).
   */
  static boolean failedBeforeAnyServer(FetchResult.Failure f) {
    return f.kind() == FetchResult.FailureKind.DNS || (f.unconnected()
        && (f.kind() == FetchResult.FailureKind.NETWORK || f.kind() == FetchResult.FailureKind.TIMEOUT));
  }
}
