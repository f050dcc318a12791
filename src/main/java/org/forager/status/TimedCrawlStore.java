package org.forager.status;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.forager.store.AgendaEntry;
import org.forager.store.Block;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlStore;
import org.forager.store.DiscoveryGate;
import org.forager.store.DueCandidate;
import org.forager.store.OriginLeases;
import org.forager.store.OriginState;
import org.forager.store.UrlCap;
import org.forager.store.UrlRecord;
import org.forager.url.Origin;

/**
 * A {@link CrawlStore} that times every call of the store it wraps ({@code forager.store.operation},
 * tagged with the method's name) and otherwise changes nothing. As thread-safe as the wrapped store.
 */
final class TimedCrawlStore implements CrawlStore {

  /** Bucket bounds for store calls: microseconds on a fast disk, seconds on a struggling database. */
  private static final Duration[] BUCKETS = {
      Duration.ofNanos(100_000), Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
      Duration.ofSeconds(5)};

  private final CrawlStore store;
  private final Timer addScope;
  private final Timer addDiscoveredOrigins;
  private final Timer scope;
  private final Timer seedOrigins;
  private final Timer addCandidates;
  private final Timer due;
  private final Timer agenda;
  private final Timer settle;
  private final Timer record;
  private final Timer bringForward;
  private final Timer firstWithDigest;
  private final Timer url;
  private final Timer history;
  private final Timer originState;
  private final Timer saveOriginState;
  private final Timer setting;
  private final Timer saveSetting;
  private final Timer forEachUrl;
  private final Timer urlCount;

  TimedCrawlStore(CrawlStore store, MeterRegistry registry) {
    this.store = store;
    addScope = timer(registry, "add_scope");
    addDiscoveredOrigins = timer(registry, "add_discovered_origins");
    scope = timer(registry, "scope");
    seedOrigins = timer(registry, "seed_origins");
    addCandidates = timer(registry, "add_candidates");
    due = timer(registry, "due");
    agenda = timer(registry, "agenda");
    settle = timer(registry, "settle");
    record = timer(registry, "record");
    bringForward = timer(registry, "bring_forward");
    firstWithDigest = timer(registry, "first_with_digest");
    url = timer(registry, "url");
    history = timer(registry, "history");
    originState = timer(registry, "origin_state");
    saveOriginState = timer(registry, "save_origin_state");
    setting = timer(registry, "setting");
    saveSetting = timer(registry, "save_setting");
    forEachUrl = timer(registry, "for_each_url");
    urlCount = timer(registry, "url_count");
  }

  private static Timer timer(MeterRegistry registry, String operation) {
    return Timer.builder("forager.store.operation")
        .description("Calls of the crawl database, by method")
        .tag("operation", operation)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  private static <T> T time(Timer timer, Supplier<T> call) {
    long start = System.nanoTime();
    try {
      return call.get();
    } finally {
      timer.record(Duration.ofNanos(System.nanoTime() - start));
    }
  }

  private static void time(Timer timer, Runnable call) {
    long start = System.nanoTime();
    try {
      call.run();
    } finally {
      timer.record(Duration.ofNanos(System.nanoTime() - start));
    }
  }

  @Override
  public void addScope(Collection<Origin> origins) {
    time(addScope, () -> store.addScope(origins));
  }

  @Override
  public void addDiscoveredOrigins(Collection<Origin> origins) {
    time(addDiscoveredOrigins, () -> store.addDiscoveredOrigins(origins));
  }

  @Override
  public Set<Origin> scope() {
    return time(scope, store::scope);
  }

  @Override
  public List<Origin> scopeOrigins(Optional<Origin> after, int limit) {
    return time(scope, (Supplier<List<Origin>>) () -> store.scopeOrigins(after, limit));
  }

  @Override
  public List<AgendaEntry> agenda(Instant cutoff, Optional<AgendaEntry> after, int limit) {
    return time(agenda, (Supplier<List<AgendaEntry>>) () -> store.agenda(cutoff, after, limit));
  }

  @Override
  public Optional<Instant> settle(Origin origin, Optional<Instant> takeUpBy) {
    return time(settle, (Supplier<Optional<Instant>>) () -> store.settle(origin, takeUpBy));
  }

  @Override
  public List<Origin> seedOrigins(Optional<Origin> after, int limit) {
    return time(seedOrigins, (Supplier<List<Origin>>) () -> store.seedOrigins(after, limit));
  }

  @Override
  public Set<Origin> inScope(Collection<Origin> origins) {
    return time(scope, (Supplier<Set<Origin>>) () -> store.inScope(origins));
  }

  @Override
  public long scopeCount() {
    return time(scope, store::scopeCount);
  }

  @Override
  public Set<Origin> seedOrigins() {
    return time(seedOrigins, (Supplier<Set<Origin>>) store::seedOrigins);
  }

  @Override
  public int addCandidates(Collection<Candidate> candidates) {
    return time(addCandidates, () -> store.addCandidates(candidates));
  }

  @Override
  public List<DueCandidate> due(Origin origin, Instant cutoff, int limit) {
    return time(due, () -> store.due(origin, cutoff, limit));
  }

  @Override
  public void record(CrawlRecord crawlRecord, Collection<Candidate> discovered) {
    time(record, () -> store.record(crawlRecord, discovered));
  }

  @Override
  public List<DueCandidate> record(CrawlRecord crawlRecord, Collection<Candidate> discovered,
      List<DueCandidate> held) {
    return time(record, () -> store.record(crawlRecord, discovered, held));
  }

  @Override
  public void recordAll(List<CrawlRecord> records) {
    time(record, () -> store.recordAll(records));
  }

  @Override
  public List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord crawlRecord,
      Collection<Candidate> discovered, List<DueCandidate> held) {
    return time(record, () -> store.record(before, crawlRecord, discovered, held));
  }

  @Override
  public List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord crawlRecord,
      Collection<Candidate> discovered, List<DueCandidate> held, DiscoveryGate gate) {
    return time(record, () -> store.record(before, crawlRecord, discovered, held, gate));
  }

  @Override
  public boolean offersUnknownToGate() {
    return store.offersUnknownToGate();
  }

  @Override
  public boolean bringForward(String u, Instant dueAt) {
    return time(bringForward, () -> store.bringForward(u, dueAt));
  }

  @Override
  public Optional<String> firstWithDigest(String digest, String u) {
    return time(firstWithDigest, () -> store.firstWithDigest(digest, u));
  }

  @Override
  public Optional<UrlRecord> url(String u) {
    return time(url, () -> store.url(u));
  }

  @Override
  public List<CrawlRecord> history(String u) {
    return time(history, () -> store.history(u));
  }

  @Override
  public Optional<OriginState> originState(Origin origin) {
    return time(originState, () -> store.originState(origin));
  }

  @Override
  public void saveOriginState(OriginState state) {
    time(saveOriginState, () -> store.saveOriginState(state));
  }

  @Override
  public Optional<String> setting(String name) {
    return time(setting, () -> store.setting(name));
  }

  @Override
  public void saveSetting(String name, String value) {
    time(saveSetting, () -> store.saveSetting(name, value));
  }

  @Override
  public void forEachUrl(Consumer<UrlRecord> visitor) {
    time(forEachUrl, () -> store.forEachUrl(visitor));
  }

  @Override
  public void forEachOriginState(Consumer<org.forager.store.OriginState> visitor) {
    store.forEachOriginState(visitor); // a command's read, not the crawl's: not timed
  }

  @Override
  public long urlCount() {
    return time(urlCount, store::urlCount);
  }

  /** The operator's blocks, untimed: read at start and on a block or unblock, never on the hot path. */
  @Override
  public List<Block> blocks() {
    return store.blocks();
  }

  @Override
  public void block(Block block) {
    store.block(block);
  }

  @Override
  public boolean unblock(String host) {
    return store.unblock(host);
  }

  @Override
  public void capUrls(UrlCap cap) {
    store.capUrls(cap);
  }

  /** The wrapped store's leases, untimed: a fleet must stay a fleet with the status page on. */
  @Override
  public Optional<OriginLeases> leases() {
    return store.leases();
  }

  @Override
  public void close() {
    store.close();
  }
}
