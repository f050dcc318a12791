package org.forager.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.forager.url.Origin;

/**
 * The crawl database: every known URL (crawl candidate) with its crawl history, and the state of
 * every origin. The one seam between the crawl loop and persistence.
 *
 * <p>Implementations must be safe for concurrent use: many origins are crawled at once. Each
 * method's writes are atomic and survive the process being killed once the method returned
 * (a machine crash may lose the last moments).
 */
public interface CrawlStore extends AutoCloseable {

  /**
   * Adds the seeds' origins to the crawl's scope; the scope is kept across runs. An origin added
   * earlier as discovered becomes a seed origin.
   */
  void addScope(Collection<Origin> origins);

  /**
   * Adds origins the crawl took on while crawling (in scope modes that widen, not seeds') to the
   * crawl's scope, kept across runs; a seed origin stays a seed origin. All in one write, however
   * many.
   */
  void addDiscoveredOrigins(Collection<Origin> origins);

  /** Every origin ever put in scope: the seeds' and the discovered ones. */
  Set<Origin> scope();

  /**
   * Up to {@code limit} origins of the scope (seeds' and discovered) after {@code after}, in the
   * order of their serialized form's bytes: the whole scope page by page, never all of it in the heap.
   * Empty {@code after}: from the first.
   */
  List<Origin> scopeOrigins(Optional<Origin> after, int limit);

  /**
   * Up to {@code limit} of the seeds' origins ({@link #seedOrigins}) after {@code after}, in the order
   * of {@link #scopeOrigins}: the seeds' origins page by page.
   */
  List<Origin> seedOrigins(Optional<Origin> after, int limit);

  /** Which of {@code origins} are in the scope, in one lookup. */
  Set<Origin> inScope(Collection<Origin> origins);

  /** How many origins the scope holds (a count, not a copy: may take a scan). */
  long scopeCount();

  /**
   * The seeds' origins only ({@link #addScope}), without those the crawl took on: what a run
   * narrowing the scope starts from. A store written before the two were told apart reads its
   * whole scope as seeds' origins, which it then was.
   */
  Set<Origin> seedOrigins();

  /**
   * Up to {@code limit} entries of the agenda after {@code after}, in the agenda's order (time, then
   * origin), none later than {@code cutoff}: the origins that may have work at {@code cutoff}, so that
   * a run takes up those and not every origin it knows (issue 14: a million idle origins cost a
   * million turns). Every origin of the scope with a URL due at or before {@code cutoff} is listed
   * (an origin that gained new URLs at {@link AgendaEntry#NEW_WORK}); an origin may be listed without
   * work (the agenda is conservative: its entries are brought up to date by {@link #settle}) and
   * more than once (at {@code NEW_WORK} and at a time). Empty {@code after}: from the first.
   */
  List<AgendaEntry> agenda(Instant cutoff, Optional<AgendaEntry> after, int limit);

  /**
   * Brings an origin's agenda entries up to date with what it holds now, when the crawl is done with
   * it for a while (it leaves the working set): at {@link AgendaEntry#NEW_WORK} while it holds
   * never-crawled URLs, and at the earlier of its first recrawl's due time and {@code takeUpBy}; no
   * entry when it has neither. Atomic with respect to {@link #record} and {@link #addCandidates}: a
   * URL added meanwhile is never left off the agenda.
   *
   * @param takeUpBy when the origin is to be taken up again even with nothing due (to read its
   *     sitemaps again); empty: only for its URLs
   * @return when the origin has work next, as its earliest entry now says; empty when it has none
   */
  Optional<Instant> settle(Origin origin, Optional<Instant> takeUpBy);

  /**
   * Adds the candidates whose URL is not known yet, due at once, with no inlinks: each gets its
   * ranking's priority at 0 inlinks. A URL is known once, exactly: a candidate already known (or
   * twice in the argument: the shallowest is kept) changes nothing.
   *
   * @return how many were new
   */
  int addCandidates(Collection<Candidate> candidates);

  /**
   * Up to {@code limit} candidates of the origin due at or before {@code cutoff}. Never-crawled ones
   * come highest priority first, then shallowest, then in URL order; crawled ones due again come by
   * due time, then shallowest, then URL. The two kinds alternate one for one, starting with a
   * never-crawled one, while both last (so neither an endless supply of new URLs nor a large
   * backlog of recrawls starves the other); then the rest of whichever is left.
   */
  List<DueCandidate> due(Origin origin, Instant cutoff, int limit);

  /**
   * Records one crawl action and the candidates it discovered, atomically: after a crash either
   * both are there or neither. The URL's due time becomes {@code record.nextFetchAt()}.
   *
   * <p>At the recorded URL's first crawl, each discovered URL counts it as one inlink: a new one is
   * stored with 1 inlink and its ranking's priority at 1; a known, never-crawled one gets one more
   * inlink and the larger of its priority and its new candidate's ranking at the new count (its
   * stored depth, URL and new count given to the ranking). Later crawls of a page count nothing
   * again, and a crawled URL's inlinks no longer change.
   *
   * <p>An inlink that leaves the URL's priority as it was may be held in memory rather than written
   * (the embedded store does: issue 15); every answer of the store counts it, and {@link #close}
   * writes it. Only such inlinks may be lost when the process is killed: never a URL, a priority or a
   * due time.
   */
  void record(CrawlRecord record, Collection<Candidate> discovered);

  /**
   * {@link #record}, telling a caller that holds the record's origin's next due URLs what they are
   * after the write. {@code held} is the origin's first never-crawled URLs as {@link #due} read them,
   * in order; the answer is the origin's first never-crawled URLs in that order, up to the last of
   * {@code held}, once this call's writes are in: {@code held} with the URLs the call added, or moved
   * by a new priority, in their places (a held URL the call moved is in its new place only; held ones
   * it did not touch are the same objects; the recorded URL is not in it, crawled now). Writes of
   * other calls are not in it. May answer a prefix of that when unsure: this default answers {@code
   * held} less the recorded URL when nothing was discovered, else nothing.
   *
   * @param held never-crawled URLs of the record's origin, in {@link #due}'s order
   */
  default List<DueCandidate> record(CrawlRecord record, Collection<Candidate> discovered, List<DueCandidate> held) {
    record(record, discovered);
    if (!discovered.isEmpty()) return List.of();
    return held.stream().filter(h -> !h.url().equals(record.url())).toList();
  }

  /**
   * Records crawl actions that discovered nothing (URLs a gate refused without a request), in order:
   * as many {@link #record(CrawlRecord, Collection)} calls with no candidates, each atomic. This
   * default makes them one by one (the PostgreSQL store's way: a transaction each); the embedded
   * store writes them together, normally as one write. A failure may leave a first part written.
   */
  default void recordAll(List<CrawlRecord> records) {
    for (CrawlRecord r : records) record(r, List.of());
  }

  /**
   * {@link #recordAll recordAll(before)}, then {@link #record(CrawlRecord, Collection, List)}, as one
   * call: a crawl turn's writes (the URLs it refused before its page, then the page). {@code held}
   * and the answer are those of the page's record, as if {@code before} had been recorded first; a
   * URL of {@code before} must not be in {@code held}. A failure is the page's record's failure; it
   * may leave a first part of {@code before} written (never in the embedded store when the writes
   * went in one group, which is the normal case). This default makes the calls one after the other.
   */
  default List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord record, Collection<Candidate> discovered,
      List<DueCandidate> held) {
    recordAll(before);
    return record(record, discovered, held);
  }

  /**
   * {@link #record(List, CrawlRecord, Collection, List)}, with the candidates this store does not know
   * offered to {@code gate} first: one it refuses is written as that refusal (its URL known, crawled
   * once, due again when the refusal's record says), in the same write as the page. A candidate found
   * known meanwhile (another origin's page added it) is recorded with the refusal all the same, since
   * its line is logged. This default asks the gate nothing (the PostgreSQL store's way): every
   * candidate is stored as found; {@link DiscoveryGate#decided} is still called, before the write.
   */
  default List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord record, Collection<Candidate> discovered,
      List<DueCandidate> held, DiscoveryGate gate) {
    gate.decided();
    return record(before, record, discovered, held);
  }

  /**
   * Whether {@link #record(List, CrawlRecord, Collection, List, DiscoveryGate)} offers its gate every
   * candidate it finds unknown, so that the caller learns which of them become new URLs (those the gate
   * does not refuse): the origins to wake are then theirs alone. False by default: that method's default
   * asks the gate nothing.
   */
  default boolean offersUnknownToGate() {
    return false;
  }

  /**
   * Makes a crawled URL due at {@code dueAt} when it is due later than that, atomically with respect
   * to {@link #record}; its validators are kept. A recrawl hint, such as a sitemap's
   * {@code <lastmod>}: an unknown URL, one never crawled (due first anyway) or one due by then
   * stays as it is.
   *
   * @return whether the due time moved
   */
  boolean bringForward(String url, Instant dueAt);

  /**
   * The exact-duplicate index, per origin: registers {@code url} as the first holder of a body
   * {@code digest} in its origin unless another URL of the origin already is, atomically (of two
   * URLs registering one digest at once, exactly one becomes its holder).
   *
   * @return the URL of the same origin holding the digest when it is not {@code url}; empty when
   *     {@code url} is (or just became) its holder. A holder stays one for good, even once its own
   *     body changed.
   */
  Optional<String> firstWithDigest(String digest, String url);

  /** Everything known about a URL. */
  Optional<UrlRecord> url(String url);

  /** Every crawl action recorded for a URL, oldest first. */
  List<CrawlRecord> history(String url);

  Optional<OriginState> originState(Origin origin);

  /** Visits every origin's saved state, streamed (a million origins are never all in memory at once). */
  void forEachOriginState(Consumer<OriginState> visitor);

  void saveOriginState(OriginState state);

  /**
   * A setting of the crawl kept across runs and shared by every process of a fleet (the scope
   * mode and lists today), by name; empty when never saved.
   *
   * @throws IllegalArgumentException when {@code name} is not a valid name ({@link CrawlSettings})
   */
  Optional<String> setting(String name);

  /**
   * Saves (or replaces) a setting, atomically and as durably as every write of this store once this
   * returns. Of two saves of one name at once, one wins whole.
   *
   * @throws IllegalArgumentException when the name or the value is not valid ({@link CrawlSettings}):
   *     a name of 1 to 64 characters of {@code [a-z0-9_.-]}, a value of at most 64 KiB of UTF-8
   *     without NUL
   */
  void saveSetting(String name, String value);

  /**
   * The hosts an operator blocked ({@link Block}), kept across runs and shared by every process of a
   * fleet, in host order.
   */
  List<Block> blocks();

  /** Adds a block, or replaces the one of its host; as durable as every write of this store once this returns. */
  void block(Block block);

  /** Removes the block of {@code host} (as {@link Block#host}); whether there was one. */
  boolean unblock(String host);

  /** Visits every known URL, in URL order. */
  void forEachUrl(Consumer<UrlRecord> visitor);

  /** How many URLs are known. */
  long urlCount();

  /**
   * Applies {@code limits.max_urls_per_origin} to the URLs added from now on: a new URL (not a seed,
   * depth 0) of an origin holding its cap ({@link UrlCap#of(String)}) of URLs already is not stored (nor, where the
   * store offers its candidates to a gate, offered to it), and {@link UrlCap#dropped} hears of it.
   * Known URLs are recorded whatever the count. Until called: {@link UrlCap#NONE}. No default, as for
   * {@link #leases}: a wrapper must forward it.
   */
  void capUrls(UrlCap cap);

  /**
   * The origin leases of a store shared by a fleet, when this store has them: the crawl loop then
   * crawls only the origins it leased. A wrapper (timing, caching) must forward its store's answer;
   * there is deliberately no default, so that no wrapper can hide the fleet by forgetting it (a
   * timing wrapper once did, and every process crawled every origin).
   */
  Optional<OriginLeases> leases();

  @Override
  void close();
}
