package org.forager.store.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.forager.config.CrawlConfig;
import org.forager.store.AgendaEntry;
import org.forager.store.Block;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlSettings;
import org.forager.store.CrawlStore;
import org.forager.store.DueCandidate;
import org.forager.store.OriginLeases;
import org.forager.store.OriginState;
import org.forager.store.Ranking;
import org.forager.store.StoreException;
import org.forager.store.UrlCap;
import org.forager.store.UrlRecord;
import org.forager.url.Origin;

/**
 * The crawl store on a PostgreSQL database, which several crawler processes can share. See
 * {@code docs/fleet.md} for the schema and the leases.
 *
 * <p>Safe for concurrent use, within a process and across processes. Every method runs in one
 * transaction (READ COMMITTED), retried when PostgreSQL aborts it for a deadlock; the writes of the
 * crawl loop ({@link #record}, {@link #saveOriginState}, {@link #firstWithDigest}, {@link
 * #addCandidates}, {@link #bringForward}) and its frequent calls ({@link #due}, {@link #holdAddress})
 * share their transaction with other calls of the moment
 * ({@link GroupCommitter}: one commit for many), each as if run alone in call order. A return means
 * the transaction committed, so its writes survive the process being killed (and, with PostgreSQL's
 * default {@code synchronous_commit}, a machine crash). A server that cannot be reached is a {@link
 * org.forager.store.StoreUnavailableException}. Deduplication is exact: a URL is inserted
 * with {@code ON CONFLICT DO NOTHING} on its primary key, so of two processes adding it at once one
 * inserts it and the other waits for that transaction and finds it known.
 *
 * <p>Instants of crawl records and robots.txt fetches come back exactly; due times are compared at
 * microsecond precision; {@link UrlRecord#discoveredAt()} is the database server's time at
 * microsecond precision. The validators a {@link DueCandidate} carries follow the embedded store's
 * rule: those of the last 2xx response, refreshed by later 304 responses.
 *
 * <p>Beyond the {@link CrawlStore} contract, origins are leased to one crawler process at a time
 * ({@link OriginLeases}) so that politeness holds across a fleet. Adding a URL of an origin (by
 * {@link #addCandidates} or {@link #record}) or bringing one forward clears its {@code done_until}
 * in the same transaction.
 */
public final class PostgresCrawlStore implements CrawlStore, OriginLeases {

  /** Connections per store unless told otherwise: enough for many origins crawled at once. */
  public static final int DEFAULT_CONNECTIONS = 8;
  /** A reader's: a scan's cursor and the lookups it makes per row (export's history of a URL). */
  private static final int READER_CONNECTIONS = 2;

  // Returns the ordinal (from 1) of each candidate it added, each (dropped true) it dropped because its
  // origin holds the cap's URLs (limits.max_urls_per_origin; seeds, depth 0, never are), and (ordinal
  // null) each origin of them released as done, which the caller reopens (REOPEN). An origin whose count
  // leaves room for every candidate of it costs no more than before; only one near its cap has its
  // candidates looked up, so that known ones take no room. Two transactions at once may together pass
  // the cap by a call's worth: a disk's bound, not an exact count. A URL takes UrlCap.weight(url) of the
  // cap (one for each 256 characters begun: the SQL's weight), counted in units; urls stays the number.
  private static final String INSERT_NEW = """
      WITH candidate AS (
        SELECT * FROM unnest(?::text[], ?::text[], ?::integer[], ?::text[], ?::integer[], ?::integer[], ?::bigint[])
          WITH ORDINALITY AS c(origin, url, depth, discovered_from, priority, hops, cap, i)
      ), offered AS (
        SELECT c.*, coalesce(n.units, n.urls, 0) AS held, sum(c.weight) OVER (PARTITION BY c.origin) AS offers
        FROM (SELECT c.*, 1 + (greatest(length(c.url), 1) - 1) / 256 AS weight FROM candidate c) c
        LEFT JOIN crawl_url_count n ON n.origin = c.origin
      ), tight AS (
        SELECT o.*, sum(o.weight) OVER (PARTITION BY o.origin ORDER BY o.i) AS nth
        FROM offered o
        WHERE o.depth > 0 AND o.held + o.offers > o.cap
          AND NOT EXISTS (SELECT 1 FROM crawl_url u WHERE u.origin = o.origin AND u.url = o.url)
      ), kept AS (
        SELECT o.origin, o.url, o.depth, o.discovered_from FROM offered o
        WHERE o.depth = 0 OR o.held + o.offers <= o.cap
        UNION ALL
        SELECT t.origin, t.url, t.depth, t.discovered_from FROM tight t WHERE t.held + t.nth <= t.cap
      ), added AS (
        INSERT INTO crawl_url (origin, url, depth, discovered_from, discovered_at)
        SELECT origin, url, depth, discovered_from, now() FROM kept
        ON CONFLICT (origin, url) DO NOTHING
        RETURNING origin, url
      ), due AS (
        INSERT INTO crawl_due (origin, url, due_at, depth, fetch_count, priority, inlinks, hops)
        SELECT c.origin, c.url, '-infinity', c.depth, 0, c.priority, ?, c.hops
        FROM added a JOIN candidate c ON c.origin = a.origin AND c.url = a.url
      ), counted AS (
        INSERT INTO crawl_url_count AS n (origin, urls, units)
        SELECT origin, count(*), sum(1 + (greatest(length(url), 1) - 1) / 256) FROM added
        GROUP BY origin ORDER BY origin
        ON CONFLICT (origin) DO UPDATE
        SET urls = n.urls + excluded.urls, units = coalesce(n.units, n.urls) + excluded.units
      ), locked AS (
        -- New URLs are new work: an origin released as done must be free again. The lease row is
        -- locked until the commit, so a release deciding "done" at the same moment (it locks the row
        -- FOR UPDATE, then looks for due URLs) either waits for this transaction and sees the URLs,
        -- or is waited for and its done_until read here (a locking read returns the row's newest
        -- version). A key-share lock: neither the fence nor a renewal of the holder conflicts with it.
        SELECT l.origin, l.done_until FROM origin_lease l
        WHERE l.origin IN (SELECT origin FROM added)
        ORDER BY l.origin
        FOR KEY SHARE OF l
      )
      SELECT c.i, NULL::text AS done, false AS dropped
      FROM added a JOIN candidate c ON c.origin = a.origin AND c.url = a.url
      UNION ALL
      SELECT t.i, NULL, true FROM tight t WHERE t.held + t.nth > t.cap
      UNION ALL
      SELECT NULL, origin, false FROM locked WHERE done_until IS NOT NULL
      """;

  // An origin released as done that got new URLs is free at once. A statement of its own, after
  // INSERT_NEW locked the row: its snapshot sees the release that INSERT_NEW may have waited for.
  // Only released rows change (a held one has no done_until), so a renewal never waits for it.
  private static final String REOPEN = """
      UPDATE origin_lease SET done_until = NULL, expires_at = now()
      WHERE origin = ANY(?::text[]) AND done_until IS NOT NULL
      """;

  // A 2xx response replaces the validators, a 304 refreshes those it sends (RFC 9110 section
  // 15.4.5), anything else says nothing about the representation and keeps them.
  private static final String RECORD = """
      WITH action AS (
        SELECT ?::timestamptz AS due_at, ?::integer AS status, ?::text AS etag, ?::text AS last_modified
      ), crawled AS (
        UPDATE crawl_due d SET
          due_at = a.due_at,
          fetch_count = d.fetch_count + 1,
          etag = CASE WHEN a.status BETWEEN 200 AND 299 THEN a.etag
                      WHEN a.status = 304 THEN coalesce(a.etag, d.etag) ELSE d.etag END,
          last_modified = CASE WHEN a.status BETWEEN 200 AND 299 THEN a.last_modified
                      WHEN a.status = 304 THEN coalesce(a.last_modified, d.last_modified)
                      ELSE d.last_modified END
        FROM action a
        WHERE d.origin = ? AND d.url = ?
        RETURNING d.origin, d.url, d.fetch_count
      )
      INSERT INTO crawl_history (origin, url, seq, %s)
      SELECT origin, url, fetch_count, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM crawled
      RETURNING seq
      """.formatted(CrawlRecordRows.COLUMNS);

  // A crawled URL due later comes due earlier; its origin, if released as done, is free again
  // (as INSERT_NEW does; whoever claims it releases it with the right done_until).
  private static final String BRING_FORWARD = """
      WITH moved AS (
        UPDATE crawl_due SET due_at = ?
        WHERE origin = ? AND url = ? AND fetch_count > 0 AND due_at > ?
        RETURNING origin
      ), reopened AS (
        UPDATE origin_lease l SET done_until = NULL,
          expires_at = CASE WHEN l.done_until IS NULL THEN l.expires_at ELSE now() END
        FROM moved WHERE l.origin = moved.origin
      )
      SELECT count(*) FROM moved
      """;

  // Never-crawled URLs take the odd turns, recrawls the even ones: ordered by turn, the two kinds
  // alternate while both last, then the rest of either follows. Each side is a range scan of its
  // index: crawl_due_new, and crawl_due_order past the never-crawled URLs' '-infinity' (every
  // crawled URL's due_at is finite). A never-crawled URL is due at any cutoff.
  private static final String DUE = """
      (SELECT url, depth, etag, last_modified, fetch_count, priority, hops,
          2 * row_number() OVER (ORDER BY priority DESC, depth, url) - 1 AS turn
        FROM crawl_due WHERE origin = ? AND fetch_count = 0
        ORDER BY priority DESC, depth, url LIMIT ?)
      UNION ALL
      (SELECT url, depth, etag, last_modified, fetch_count, priority, hops,
          2 * row_number() OVER (ORDER BY due_at, depth, url) AS turn
        FROM crawl_due WHERE origin = ? AND due_at > '-infinity' AND due_at <= ? AND fetch_count > 0
        ORDER BY due_at, depth, url LIMIT ?)
      ORDER BY turn
      LIMIT ?
      """;

  private static final String URL_RECORD = """
      SELECT u.url, u.depth, u.discovered_from, u.discovered_at, d.fetch_count, d.due_at, d.priority,
        d.inlinks, d.hops, h.seq, %s
      FROM crawl_url u
      JOIN crawl_due d ON d.origin = u.origin AND d.url = u.url
      LEFT JOIN crawl_history h ON h.origin = u.origin AND h.url = u.url AND h.seq = d.fetch_count
      """.formatted(CrawlRecordRows.columns("h"));

  private static final String SAVE_ORIGIN_STATE = """
      INSERT INTO origin_state AS s (origin, delay_ms, patience, robots_status, robots_body,
        robots_fetched_at, robots_fetched_at_nanos, robots_expires_at, robots_expires_at_nanos,
        run_started_at, run_started_at_nanos, run_pages, run_flags, run_sitemaps_read_at,
        run_sitemaps_read_at_nanos, wait_until, wait_until_nanos)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (origin) DO UPDATE SET delay_ms = excluded.delay_ms, patience = excluded.patience,
        robots_status = excluded.robots_status, robots_body = excluded.robots_body,
        robots_fetched_at = excluded.robots_fetched_at,
        robots_fetched_at_nanos = excluded.robots_fetched_at_nanos,
        robots_expires_at = excluded.robots_expires_at,
        robots_expires_at_nanos = excluded.robots_expires_at_nanos,
        run_started_at = excluded.run_started_at, run_started_at_nanos = excluded.run_started_at_nanos,
        run_pages = excluded.run_pages, run_flags = excluded.run_flags,
        run_sitemaps_read_at = excluded.run_sitemaps_read_at,
        run_sitemaps_read_at_nanos = excluded.run_sitemaps_read_at_nanos,
        wait_until = excluded.wait_until, wait_until_nanos = excluded.wait_until_nanos
      """;

  private static final String SAVE_SETTING = """
      INSERT INTO crawl_setting (name, value) VALUES (?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = now()
      """;

  private final Database database;
  private final LeaseTable leases;
  private final GroupCommitter groups;
  private volatile UrlCap cap = UrlCap.NONE;

  private PostgresCrawlStore(Database database, GroupCommitter.Options options) {
    this.database = database;
    this.leases = new LeaseTable(database);
    this.groups = new GroupCommitter(database, leases, options);
  }

  /**
   * Opens the store in the database at {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db},
   * user and password as URL parameters or in {@code ~/.pgpass}) with
   * {@value #DEFAULT_CONNECTIONS} connections, creating or upgrading the schema when needed.
   *
   * @throws StoreException naming the URL (without its secrets) when the server is unreachable, the
   *     login fails, or the schema version is unknown to this code
   */
  public static PostgresCrawlStore open(String jdbcUrl) {
    return open(jdbcUrl, DEFAULT_CONNECTIONS);
  }

  /** As {@link #open(String)}, with at most {@code maxConnections} connections to the server. */
  public static PostgresCrawlStore open(String jdbcUrl, int maxConnections) {
    return open(jdbcUrl, Optional.empty(), maxConnections, GroupCommitter.Options.DEFAULT);
  }

  /** As {@link #open(String, int)}, gathering groups of writes as {@code groups} says (tests). */
  static PostgresCrawlStore open(String jdbcUrl, int maxConnections, GroupCommitter.Options groups) {
    return open(jdbcUrl, Optional.empty(), maxConnections, groups);
  }

  /**
   * The store a configuration names, its password taken from {@code store.password_file} or the
   * environment ({@code FORAGER_STORE_PASSWORD}, {@code PGPASSWORD}) when the URL has none.
   *
   * @throws StoreException as {@link #open(String)}, or naming the password file when it cannot
   *     be used (missing, open to group or others, empty)
   */
  public static PostgresCrawlStore open(CrawlConfig.Store store) {
    return open(store, System::getenv);
  }

  static PostgresCrawlStore open(CrawlConfig.Store store, UnaryOperator<String> env) {
    return open(store.url(), Passwords.of(store, env), DEFAULT_CONNECTIONS, GroupCommitter.Options.DEFAULT);
  }

  /**
   * The store a configuration names, to read only (the status and export commands): its transactions are
   * read-only and its schema is not upgraded, so that a newer Forager's look at a fleet's database does
   * not lock the fleet's older processes out.
   *
   * @throws StoreException as {@link #open(CrawlConfig.Store)}, or when the database holds no crawl or a
   *     schema older than this code's
   */
  public static PostgresCrawlStore openForReading(CrawlConfig.Store store) {
    return openForReading(store.url(), Passwords.of(store, System::getenv));
  }

  static PostgresCrawlStore openForReading(String jdbcUrl, Optional<String> password) {
    Database database = Database.connect(jdbcUrl, password, READER_CONNECTIONS, true);
    try {
      Migrations.readable(database);
      return new PostgresCrawlStore(database, GroupCommitter.Options.DEFAULT);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  private static PostgresCrawlStore open(String jdbcUrl, Optional<String> password, int maxConnections,
      GroupCommitter.Options groups) {
    if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be at least 1");
    Database database = Database.connect(jdbcUrl, password, maxConnections);
    try {
      Migrations.migrate(database);
      return new PostgresCrawlStore(database, groups);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  /** {@inheritDoc} A discovered origin's row becomes a seed's ({@code seed = true}). */
  @Override
  public void addScope(Collection<Origin> origins) {
    addToScope(origins, "ON CONFLICT (origin) DO UPDATE SET seed = true WHERE NOT s.seed", true);
  }

  @Override
  public void addDiscoveredOrigins(Collection<Origin> origins) {
    addToScope(origins, "ON CONFLICT (origin) DO NOTHING", false);
  }

  /** Inserts the origins into the scope, {@code seed} as given, and a lease row each: one transaction. */
  private void addToScope(Collection<Origin> origins, String onConflict, boolean seed) {
    // Sorted: two transactions locking rows in one order cannot deadlock.
    String[] sorted = new TreeSet<>(origins.stream().map(Origin::toString).toList()).toArray(String[]::new);
    if (sorted.length == 0) return;
    database.inTransaction(connection -> {
      Array array = connection.createArrayOf("text", sorted);
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO crawl_scope AS s (origin, seed)"
          + " SELECT unnest(?::text[]), ? " + onConflict)) {
        insert.setArray(1, array);
        insert.setBoolean(2, seed);
        insert.executeUpdate();
      }
      // Every scope origin, a seed's or not, has a lease row, free until a process claims it.
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO origin_lease (origin) SELECT unnest(?::text[]) ON CONFLICT (origin) DO NOTHING")) {
        insert.setArray(1, array);
        insert.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Set<Origin> scope() {
    return origins("SELECT origin FROM crawl_scope");
  }

  /**
   * {@inheritDoc} Derived from the due URLs (an aggregate over them: exact, and a scan of the due
   * table, for tools and tests): a fleet takes its origins from the leases, whose {@code done_until}
   * is its agenda, so the crawl loop never asks this store. Origins without URLs are not listed.
   */
  @Override
  public List<AgendaEntry> agenda(Instant cutoff, Optional<AgendaEntry> after, int limit) {
    if (limit <= 0) return List.of();
    return database.inTransaction(connection -> {
      List<AgendaEntry> page = new ArrayList<>(Math.min(limit, 10_000));
      try (PreparedStatement select = connection.prepareStatement("""
          SELECT origin, at FROM (
            SELECT origin, greatest(min(due_at), 'epoch') AS at FROM crawl_due GROUP BY origin) a
          WHERE at <= ? AND (at, origin) > (?, ?) ORDER BY at, origin LIMIT ?""")) {
        select.setObject(1, SqlTime.cutoff(cutoff));
        select.setObject(2, SqlTime.cutoff(after.map(AgendaEntry::at).orElse(Instant.MIN)));
        select.setString(3, after.map(e -> e.origin().toString()).orElse(""));
        select.setInt(4, limit);
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) page.add(new AgendaEntry(SqlTime.get(rows, "at"), Origin.ofUrl(rows.getString(1))));
        }
      }
      return page;
    });
  }

  /** {@inheritDoc} A read only here ({@code takeUpBy} is not kept: see {@link #agenda}). */
  @Override
  public Optional<Instant> settle(Origin origin, Optional<Instant> takeUpBy) {
    Optional<Instant> first = database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement(
          "SELECT CASE WHEN min(due_at) IS NULL THEN NULL ELSE greatest(min(due_at), 'epoch') END AS at"
              + " FROM crawl_due WHERE origin = ?")) {
        select.setString(1, origin.toString());
        try (ResultSet rows = select.executeQuery()) {
          rows.next();
          return rows.getObject(1) == null ? Optional.<Instant>empty() : Optional.of(SqlTime.get(rows, "at"));
        }
      }
    });
    if (first.isPresent() && first.get().equals(AgendaEntry.NEW_WORK)) return first;
    return takeUpBy.filter(by -> first.isEmpty() || by.isBefore(first.get())).or(() -> first);
  }

  @Override
  public List<Origin> scopeOrigins(Optional<Origin> after, int limit) {
    return originsAfter("", after, limit);
  }

  @Override
  public List<Origin> seedOrigins(Optional<Origin> after, int limit) {
    return originsAfter(" AND seed", after, limit);
  }

  private List<Origin> originsAfter(String condition, Optional<Origin> after, int limit) {
    if (limit <= 0) return List.of();
    return database.inTransaction(connection -> {
      List<Origin> page = new ArrayList<>(Math.min(limit, 10_000));
      try (PreparedStatement select = connection.prepareStatement(
          "SELECT origin FROM crawl_scope WHERE origin > ?" + condition + " ORDER BY origin LIMIT ?")) {
        select.setString(1, after.map(Origin::toString).orElse(""));
        select.setInt(2, limit);
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) page.add(Origin.ofUrl(rows.getString(1)));
        }
      }
      return page;
    });
  }

  @Override
  public Set<Origin> inScope(Collection<Origin> origins) {
    if (origins.isEmpty()) return Set.of();
    String[] names = origins.stream().map(Origin::toString).distinct().toArray(String[]::new);
    return database.inTransaction(connection -> {
      Set<Origin> found = new HashSet<>();
      try (PreparedStatement select = connection.prepareStatement(
          "SELECT origin FROM crawl_scope WHERE origin = ANY(?::text[])")) {
        select.setArray(1, connection.createArrayOf("text", names));
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) found.add(Origin.ofUrl(rows.getString(1)));
        }
      }
      return found;
    });
  }

  @Override
  public long scopeCount() {
    return database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement("SELECT count(*) FROM crawl_scope");
          ResultSet rows = select.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    });
  }

  @Override
  public Set<Origin> seedOrigins() {
    return origins("SELECT origin FROM crawl_scope WHERE seed");
  }

  private Set<Origin> origins(String query) {
    return database.inTransaction(connection -> {
      Set<Origin> scope = new TreeSet<>();
      try (PreparedStatement select = connection.prepareStatement(query);
          ResultSet rows = select.executeQuery()) {
        while (rows.next()) scope.add(Origin.ofUrl(rows.getString(1)));
      }
      return Collections.unmodifiableSet(scope);
    });
  }

  @Override
  public int addCandidates(Collection<Candidate> candidates) {
    CandidateRows rows = CandidateRows.of(candidates);
    if (rows.isEmpty()) return 0;
    Integer[] priorities = rows.priorities(0);
    // Drops are told once the transaction committed, as its last attempt found them.
    AtomicReference<Map<String, Integer>> drops = new AtomicReference<>();
    int added = groups.submit(Optional.empty(), connection -> {
      Map<String, Integer> dropped = new TreeMap<>();
      int n = count(insertNew(connection, rows, priorities, 0, dropped));
      drops.set(dropped);
      return n;
    });
    tellDropped(drops.get());
    return added;
  }

  @Override
  public List<DueCandidate> due(Origin origin, Instant cutoff, int limit) {
    if (limit <= 0) return List.of();
    // In a group: the crawl loop reads an origin's next URLs after most pages (more transactions
    // than every write together before group commit); the group's writes before it are visible to it.
    return groups.submit(Optional.empty(), connection -> {
      try (PreparedStatement select = connection.prepareStatement(DUE)) {
        select.setString(1, origin.toString());
        select.setInt(2, limit);
        select.setString(3, origin.toString());
        select.setObject(4, SqlTime.cutoff(cutoff));
        select.setInt(5, limit);
        select.setInt(6, limit);
        List<DueCandidate> due = new ArrayList<>(Math.min(limit, 1024));
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            due.add(new DueCandidate(rows.getString(1), rows.getInt(2),
                Optional.ofNullable(rows.getString(3)), Optional.ofNullable(rows.getString(4)),
                rows.getInt(5), Ranking.dequantize(rows.getInt(6)), rows.getInt(7)));
          }
        }
        return due;
      }
    });
  }

  /**
   * {@inheritDoc} One to four statements in a group's transaction: the crawl (the URL's due row and
   * history), then, if the page links anywhere, the insert of the discovered URLs not known yet,
   * then, at the page's first crawl only, the lock and update of the known, never-crawled URLs it
   * links to ({@link Inlinks}). A URL recorded without being added is added first, as a seed.
   * When this store claimed the URL's origin, the group first checks the origin's lease epoch
   * ({@link LeaseTable#fence}): a crawl by a holder that lost the origin is refused whole.
   */
  @Override
  public void record(CrawlRecord record, Collection<Candidate> discovered) {
    String origin = CandidateRows.origin(record.url());
    List<Candidate> links = new ArrayList<>(discovered.size());
    for (Candidate candidate : discovered) {
      if (!candidate.url().equals(record.url())) links.add(candidate); // a page's links to itself count nothing
    }
    CandidateRows rows = CandidateRows.of(links);
    CandidateRows self = CandidateRows.of(List.of(Candidate.seed(record.url())));
    SqlTime.micros(record.fetchedAt()); // out-of-range instants fail before the transaction
    SqlTime.micros(record.nextFetchAt());
    // A stale holder's crawl is refused whole (the fence): the new holder's view of the URL (and of
    // what it links to) is the one kept; the URL is still due for it, so it is fetched again.
    AtomicReference<Map<String, Integer>> drops = new AtomicReference<>();
    groups.submit(Optional.of(origin), connection -> {
      int fetchCount = crawl(connection, origin, record);
      if (fetchCount == 0) {
        insertNew(connection, self, self.priorities(0), 0, new TreeMap<>()); // a seed's: never dropped
        fetchCount = crawl(connection, origin, record);
        if (fetchCount == 0) {
          throw new StoreException("crawl database " + database.name + ": no due row for " + record.url());
        }
      }
      if (rows.isEmpty()) return null;
      // Only a page's first crawl counts its links: its new links are stored with that inlink.
      // Every link is ranked up front (rankings are cheap and pure); the insert keeps the new ones'.
      boolean first = fetchCount == 1;
      Map<String, Integer> dropped = new TreeMap<>();
      boolean[] added = insertNew(connection, rows, rows.priorities(first ? 1 : 0), first ? 1 : 0, dropped);
      drops.set(dropped);
      if (first) Inlinks.count(connection, rows, added);
      return null;
    });
    tellDropped(drops.get());
  }

  /**
   * Records the crawl action on the URL's due row and in its history.
   *
   * @return the URL's fetch count now; 0 when the URL is not known (nothing written)
   */
  private static int crawl(Connection connection, String origin, CrawlRecord record) throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(RECORD)) {
      int i = 1;
      update.setObject(i++, SqlTime.micros(record.nextFetchAt()));
      update.setInt(i++, record.httpStatus());
      update.setString(i++, record.etag().orElse(null));
      update.setString(i++, record.lastModified().orElse(null));
      update.setString(i++, origin);
      update.setString(i++, record.url());
      SqlTime.setExact(update, i, record.fetchedAt());
      i += 2;
      update.setString(i++, record.outcome().name());
      update.setInt(i++, record.httpStatus());
      update.setLong(i++, record.durationMillis());
      update.setString(i++, record.contentType().orElse(null));
      update.setLong(i++, record.contentLength());
      update.setString(i++, record.digest().orElse(null));
      update.setString(i++, record.redirectTo().orElse(null));
      update.setString(i++, record.canonical().orElse(null));
      update.setBoolean(i++, record.noindex());
      update.setBoolean(i++, record.nofollow());
      update.setString(i++, record.etag().orElse(null));
      update.setString(i++, record.lastModified().orElse(null));
      SqlTime.setExact(update, i, record.nextFetchAt());
      i += 2;
      update.setString(i++, record.duplicateOf().orElse(null));
      if (record.simhash().isPresent()) update.setLong(i, record.simhash().getAsLong());
      else update.setNull(i, java.sql.Types.BIGINT);
      try (ResultSet seq = update.executeQuery()) {
        return seq.next() ? seq.getInt(1) : 0;
      }
    }
  }

  @Override
  public boolean bringForward(String url, Instant dueAt) {
    String origin = CandidateRows.origin(url);
    OffsetDateTime at = SqlTime.micros(dueAt);
    return groups.submit(Optional.empty(), connection -> {
      try (PreparedStatement update = connection.prepareStatement(BRING_FORWARD)) {
        update.setObject(1, at);
        update.setString(2, origin);
        update.setString(3, url);
        update.setObject(4, at);
        try (ResultSet count = update.executeQuery()) {
          count.next();
          return count.getInt(1) > 0;
        }
      }
    });
  }

  @Override
  public Optional<String> firstWithDigest(String digest, String url) {
    String origin = CandidateRows.origin(url);
    return groups.submit(Optional.empty(), connection -> {
      // Under READ COMMITTED a conflicting insert waits for the other transaction, then does nothing;
      // the SELECT after it then sees the committed holder.
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO crawl_digest (origin, digest, url) VALUES (?, ?, ?) ON CONFLICT (origin, digest) DO NOTHING")) {
        insert.setString(1, origin);
        insert.setString(2, digest);
        insert.setString(3, url);
        if (insert.executeUpdate() == 1) return Optional.<String>empty();
      }
      try (PreparedStatement select =
          connection.prepareStatement("SELECT url FROM crawl_digest WHERE origin = ? AND digest = ?")) {
        select.setString(1, origin);
        select.setString(2, digest);
        try (ResultSet row = select.executeQuery()) {
          if (!row.next()) throw new StoreException("crawl database " + database.name + ": digest " + digest + " vanished");
          String first = row.getString(1);
          return first.equals(url) ? Optional.<String>empty() : Optional.of(first);
        }
      }
    });
  }

  @Override
  public Optional<UrlRecord> url(String url) {
    Optional<String> origin = originOf(url);
    if (origin.isEmpty()) return Optional.empty();
    return database.inTransaction(connection -> {
      try (PreparedStatement select =
          connection.prepareStatement(URL_RECORD + " WHERE u.origin = ? AND u.url = ?")) {
        select.setString(1, origin.get());
        select.setString(2, url);
        try (ResultSet row = select.executeQuery()) {
          return row.next() ? Optional.of(urlRecord(row)) : Optional.<UrlRecord>empty();
        }
      }
    });
  }

  @Override
  public List<CrawlRecord> history(String url) {
    Optional<String> origin = originOf(url);
    if (origin.isEmpty()) return List.of();
    return database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement("SELECT " + CrawlRecordRows.COLUMNS
          + " FROM crawl_history WHERE origin = ? AND url = ?"
          + " ORDER BY fetched_at, fetched_at_nanos, seq")) {
        select.setString(1, origin.get());
        select.setString(2, url);
        List<CrawlRecord> history = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) history.add(CrawlRecordRows.read(url, rows));
        }
        return history;
      }
    });
  }

  @Override
  public Optional<OriginState> originState(Origin origin) {
    return database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement(
          "SELECT * FROM origin_state WHERE origin = ?")) {
        select.setString(1, origin.toString());
        try (ResultSet row = select.executeQuery()) {
          if (!row.next()) return Optional.<OriginState>empty();
          return Optional.of(originState(origin, row));
        }
      }
    });
  }

  /** {@inheritDoc} Through a cursor, in origin order. */
  @Override
  public void forEachOriginState(java.util.function.Consumer<OriginState> visitor) {
    database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement("SELECT * FROM origin_state ORDER BY origin")) {
        select.setFetchSize(1000);
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) visitor.accept(originState(Origin.ofUrl(rows.getString("origin")), rows));
        }
      }
      return null;
    });
  }

  private static OriginState originState(Origin origin, ResultSet row) throws java.sql.SQLException {
    Optional<OriginState.RobotsTxt> robots = Optional.empty();
    int status = row.getInt("robots_status");
    if (!row.wasNull()) {
      robots = Optional.of(new OriginState.RobotsTxt(status, row.getBytes("robots_body"),
          SqlTime.getExact(row, "robots_fetched_at"), SqlTime.getExact(row, "robots_expires_at")));
    }
    Optional<OriginState.RunProgress> run = Optional.empty();
    long pages = row.getLong("run_pages");
    if (!row.wasNull()) {
      int flags = row.getInt("run_flags");
      Optional<Instant> sitemapsReadAt = row.getObject("run_sitemaps_read_at") == null ? Optional.empty()
          : Optional.of(SqlTime.getExact(row, "run_sitemaps_read_at"));
      run = Optional.of(new OriginState.RunProgress(SqlTime.getExact(row, "run_started_at"), pages,
          (flags & 1) != 0, (flags & 2) != 0, sitemapsReadAt));
    }
    Optional<Instant> waitUntil = row.getObject("wait_until") == null ? Optional.empty()
        : Optional.of(SqlTime.getExact(row, "wait_until"));
    return new OriginState(origin, robots, row.getLong("delay_ms"), row.getInt("patience"), run, waitUntil);
  }

  @Override
  public void saveOriginState(OriginState state) {
    groups.submit(Optional.of(state.origin().toString()), connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(SAVE_ORIGIN_STATE)) {
        upsert.setString(1, state.origin().toString());
        upsert.setLong(2, state.delayMillis());
        upsert.setInt(3, state.patience());
        if (state.robotsTxt().isPresent()) {
          OriginState.RobotsTxt robots = state.robotsTxt().get();
          upsert.setInt(4, robots.status());
          upsert.setBytes(5, robots.body());
          SqlTime.setExact(upsert, 6, robots.fetchedAt());
          SqlTime.setExact(upsert, 8, robots.expiresAt());
        } else {
          for (int i = 4; i <= 9; i++) upsert.setObject(i, null);
        }
        if (state.run().isPresent()) {
          OriginState.RunProgress run = state.run().get();
          SqlTime.setExact(upsert, 10, run.runStarted());
          upsert.setLong(12, run.pagesFetched());
          upsert.setInt(13, (run.sitemapsRead() ? 1 : 0) | (run.givenUp() ? 2 : 0));
          if (run.sitemapsReadAt().isPresent()) SqlTime.setExact(upsert, 14, run.sitemapsReadAt().get());
          else for (int i = 14; i <= 15; i++) upsert.setObject(i, null);
        } else {
          for (int i = 10; i <= 15; i++) upsert.setObject(i, null);
        }
        if (state.waitUntil().isPresent()) SqlTime.setExact(upsert, 16, state.waitUntil().get());
        else for (int i = 16; i <= 17; i++) upsert.setObject(i, null);
        upsert.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<String> setting(String name) {
    CrawlSettings.checkName(name);
    return database.inTransaction(connection -> {
      try (PreparedStatement select =
          connection.prepareStatement("SELECT value FROM crawl_setting WHERE name = ?")) {
        select.setString(1, name);
        try (ResultSet row = select.executeQuery()) {
          return row.next() ? Optional.of(row.getString(1)) : Optional.<String>empty();
        }
      }
    });
  }

  /** {@inheritDoc} One upsert: of two processes saving one name at once, the later commit wins. */
  @Override
  public void saveSetting(String name, String value) {
    CrawlSettings.checkName(name);
    CrawlSettings.checkValue(name, value);
    database.inTransaction(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(SAVE_SETTING)) {
        upsert.setString(1, name);
        upsert.setString(2, value);
        upsert.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public List<Block> blocks() {
    return database.inTransaction(connection -> {
      List<Block> blocks = new ArrayList<>();
      try (PreparedStatement select =
          connection.prepareStatement("SELECT host, since, blocked_by FROM blocked_host ORDER BY host")) {
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            blocks.add(new Block(rows.getString("host"), SqlTime.get(rows, "since"), rows.getString("blocked_by")));
          }
        }
      }
      return List.copyOf(blocks);
    });
  }

  /** {@inheritDoc} One upsert. */
  @Override
  public void block(Block block) {
    database.inTransaction(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO blocked_host (host, since, blocked_by) "
          + "VALUES (?, ?, ?) ON CONFLICT (host) DO UPDATE SET since = excluded.since, blocked_by = excluded.blocked_by")) {
        upsert.setString(1, block.host());
        upsert.setObject(2, SqlTime.micros(block.since()));
        upsert.setString(3, block.by());
        upsert.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public boolean unblock(String host) {
    Block.checkHost(host);
    return database.inTransaction(connection -> {
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM blocked_host WHERE host = ?")) {
        delete.setString(1, host);
        return delete.executeUpdate() > 0;
      }
    });
  }

  /**
   * {@inheritDoc} Streams the URLs from one snapshot (read 1,000 at a time), sorted by the server;
   * the visitor must not close the store.
   */
  @Override
  public void forEachUrl(Consumer<UrlRecord> visitor) {
    database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement(URL_RECORD + " ORDER BY u.url")) {
        select.setFetchSize(1000); // a cursor: the whole table never sits in memory
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) visitor.accept(urlRecord(rows));
        }
      }
      return null;
    });
  }

  @Override
  public long urlCount() {
    return database.inTransaction(connection -> {
      try (PreparedStatement select =
              connection.prepareStatement("SELECT coalesce(sum(urls), 0)::bigint FROM crawl_url_count");
          ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    });
  }

  /** {@inheritDoc} Read from {@code crawl_url_count}, which every insert of new URLs keeps. */
  @Override
  public void capUrls(UrlCap cap) {
    this.cap = Objects.requireNonNull(cap, "cap");
  }

  /** This store's leases: a database shared by a fleet always leases origins. */
  @Override
  public Optional<OriginLeases> leases() {
    return Optional.of(this);
  }


  /**
   * {@inheritDoc} Origins never leased come first, then those free for longest. Each claim locks
   * the rows it takes and skips those another claim is taking.
   */
  @Override
  public List<Origin> claim(String owner, int max, Duration lease, Instant dueBy) {
    return leases.claim(owner, max, lease, dueBy);
  }

  @Override
  public List<Origin> renew(String owner, Duration lease) {
    return leases.renew(owner, lease);
  }

  @Override
  public boolean release(String owner, Origin origin, Release release) {
    return leases.release(owner, origin, release);
  }

  @Override
  public int endRests(java.util.function.Predicate<Origin> which) {
    return leases.endRests(which);
  }

  @Override
  public boolean othersHoldLeases(String owner) {
    return leases.othersHoldLeases(owner);
  }

  @Override
  public boolean holdAddress(String owner, String address, Duration lease) {
    return leases.holdAddress(owner, address, lease, groups);
  }

  @Override
  public void releaseAddress(String owner, String address) {
    leases.releaseAddress(owner, address);
  }

  /** Closes the connections; closing twice is harmless. Calls after it throw {@link IllegalStateException}. */
  @Override
  public void close() {
    groups.close();
    database.close();
  }

  /** Transactions the group commit has committed so far: each holds one or more calls (tests). */
  long groupTransactions() {
    return groups.transactions();
  }

  /**
   * Inserts the candidates not known yet with their due and count rows, each with its priority
   * (quantized) and {@code inlinks}.
   *
   * @return which of the candidates were added, by index
   */
  private boolean[] insertNew(Connection connection, CandidateRows rows, Integer[] priorities, int inlinks,
      Map<String, Integer> dropped) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(INSERT_NEW)) {
      insert.setArray(1, connection.createArrayOf("text", rows.origins()));
      insert.setArray(2, connection.createArrayOf("text", rows.urls()));
      insert.setArray(3, connection.createArrayOf("integer", rows.depths()));
      insert.setArray(4, connection.createArrayOf("text", rows.discoveredFrom()));
      insert.setArray(5, connection.createArrayOf("integer", priorities));
      insert.setArray(6, connection.createArrayOf("integer", rows.hops()));
      insert.setArray(7, connection.createArrayOf("bigint", caps(rows, cap)));
      insert.setInt(8, inlinks);
      boolean[] added = new boolean[rows.urls().length];
      List<String> done = new ArrayList<>();
      try (ResultSet ordinals = insert.executeQuery()) {
        while (ordinals.next()) {
          int i = ordinals.getInt(1);
          if (ordinals.wasNull()) done.add(ordinals.getString(2));
          else if (ordinals.getBoolean(3)) dropped.merge(rows.origins()[i - 1], 1, Integer::sum);
          else added[i - 1] = true;
        }
      }
      if (!done.isEmpty()) {
        try (PreparedStatement reopen = connection.prepareStatement(REOPEN)) {
          reopen.setArray(1, connection.createArrayOf("text", done.toArray()));
          reopen.executeUpdate();
        }
      }
      return added;
    }
  }

  /** Tells the cap's listener what a committed call dropped (null: nothing to tell). */
  private void tellDropped(Map<String, Integer> dropped) {
    if (dropped != null) dropped.forEach(cap.dropped()::dropped);
  }

  /** Each candidate's origin's cap, asked once an origin (the rows come in origin order). */
  private static Long[] caps(CandidateRows rows, UrlCap cap) {
    String[] origins = rows.origins();
    Long[] caps = new Long[origins.length];
    for (int i = 0; i < origins.length; i++) {
      caps[i] = i > 0 && origins[i].equals(origins[i - 1]) ? caps[i - 1] : cap.of(origins[i]);
    }
    return caps;
  }

  private static int count(boolean[] added) {
    int n = 0;
    for (boolean b : added) if (b) n++;
    return n;
  }

  private static UrlRecord urlRecord(ResultSet row) throws SQLException {
    String url = row.getString("url");
    row.getInt("seq"); // null when the URL was never crawled (no history row joined)
    Optional<CrawlRecord> last =
        row.wasNull() ? Optional.empty() : Optional.of(CrawlRecordRows.read(url, row));
    // The last crawl's next_fetch_at is exact; due_at (microseconds) is earlier only once a
    // bringForward moved it.
    Instant next = last.map(CrawlRecord::nextFetchAt).orElse(Instant.EPOCH);
    if (last.isPresent()) {
      Instant due = SqlTime.get(row, "due_at");
      if (due.isBefore(next.truncatedTo(ChronoUnit.MICROS))) next = due;
    }
    return new UrlRecord(url, row.getInt("depth"), Optional.ofNullable(row.getString("discovered_from")),
        SqlTime.get(row, "discovered_at"), row.getInt("fetch_count"), last, next,
        Ranking.dequantize(row.getInt("priority")), row.getInt("inlinks"), row.getInt("hops"));
  }

  /** The origin of a URL looked up; empty for a string that cannot be a stored URL. */
  private static Optional<String> originOf(String url) {
    try {
      return Optional.of(CandidateRows.origin(url));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

}
