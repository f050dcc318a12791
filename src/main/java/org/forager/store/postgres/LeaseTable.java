package org.forager.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.store.OriginLeases.Release;
import org.forager.url.Origin;

/**
 * The {@code origin_lease} table: which crawler process may crawl an origin, until when (the
 * database server's clock), and until when a released origin has nothing due ({@code done_until}).
 * The contracts are on {@link org.forager.store.OriginLeases}. Safe for concurrent use, within a
 * process and across processes.
 */
final class LeaseTable {

  // A released origin has expires_at = greatest(release time, done_until), so "expires_at < now()"
  // (an index range scan) already leaves out origins done until later; done_until <= dueBy then
  // leaves out those done for a run whose cutoff is earlier than theirs.
  private static final String CLAIM = """
      WITH free AS (
        SELECT origin FROM origin_lease
        WHERE expires_at < now() AND (done_until IS NULL OR done_until <= ?)
        ORDER BY expires_at, origin
        LIMIT ?
        FOR UPDATE SKIP LOCKED
      )
      UPDATE origin_lease l SET owner = ?, expires_at = now() + ? * interval '1 microsecond', done_until = NULL,
        epoch = l.epoch + 1
      FROM free WHERE l.origin = free.origin
      RETURNING l.origin, l.epoch
      """;

  // The done_until of each kind of release. NOTHING_DUE runs in a statement of its own after the
  // row is locked: READ COMMITTED gives it a snapshot that sees every URL added by a transaction
  // that locked the row before us (PostgresCrawlStore's INSERT_NEW locks it to reopen the origin).
  private static final String UNFINISHED = "NULL::timestamptz";
  private static final String DONE_UNTIL = "?::timestamptz";
  private static final String NOTHING_DUE = """
      CASE WHEN EXISTS (SELECT 1 FROM crawl_due WHERE origin = ? AND due_at <= ?) THEN NULL::timestamptz
           ELSE coalesce((SELECT min(due_at) FROM crawl_due WHERE origin = ?), 'infinity') END""";

  // A resting origin (Release.Resting) has no owner, no done_until and expires_at its rest's end: no
  // claim takes it before, and then any claim does, whatever its cutoff.
  private static final String RELEASE = """
      UPDATE origin_lease SET owner = NULL, done_until = d.until, expires_at = greatest(now(), d.until, d.rest)
      FROM (SELECT %s AS until, %s AS rest) d
      WHERE origin = ? AND owner = ?
      """;
  private static final String RESTING = "owner IS NULL AND done_until IS NULL AND expires_at > now()";

  // A key-share lock, in origin order: a claim (which takes the row FOR UPDATE SKIP LOCKED) cannot
  // move the epoch until the fenced writes commit, and skips the origin meanwhile. KEY SHARE rather
  // than SHARE: the updates other transactions make to the row while a group holds it (a renewal, a
  // new URL reopening the origin) do not conflict with it, so a group spanning many origins blocks no
  // other process's writes and cannot deadlock with them over these rows.
  private static final String FENCE = """
      SELECT l.origin FROM origin_lease l
      JOIN unnest(?::text[], ?::bigint[]) AS f(origin, epoch) ON l.origin = f.origin AND l.epoch = f.epoch
      ORDER BY l.origin
      FOR KEY SHARE OF l
      """;

  private final Database database;
  /**
   * The epoch of each origin this store's process was granted (by its latest claim of it): the fence
   * its writes of that origin carry. An origin lost stays here, so its late writes are refused;
   * a release removes it. A store is one process's: its claims are its process's.
   */
  private final Map<String, Long> epochs = new ConcurrentHashMap<>();

  LeaseTable(Database database) {
    this.database = database;
  }

  /**
   * In a transaction writing what holding some origins taught this process: checks (and keeps until
   * the commit) that each origin's epoch is still the one this process was granted, in one statement.
   * An origin this process never claimed is not fenced (a store used without leases).
   *
   * @return the origins whose epoch another claim moved since: their writes must not be made
   */
  Set<String> fence(Connection connection, Set<String> origins) throws SQLException {
    List<String> names = new ArrayList<>(origins.size());
    List<Long> granted = new ArrayList<>(origins.size());
    for (String origin : origins) {
      Long epoch = epochs.get(origin);
      if (epoch == null) continue;
      names.add(origin);
      granted.add(epoch);
    }
    if (names.isEmpty()) return Set.of();
    Set<String> refused = new HashSet<>(names);
    try (PreparedStatement fence = connection.prepareStatement(FENCE)) {
      fence.setArray(1, connection.createArrayOf("text", names.toArray()));
      fence.setArray(2, connection.createArrayOf("bigint", granted.toArray()));
      try (ResultSet rows = fence.executeQuery()) {
        while (rows.next()) refused.remove(rows.getString(1));
      }
    }
    return refused;
  }

  List<Origin> claim(String owner, int max, Duration lease, Instant dueBy) {
    checkOwner(owner);
    checkLease(lease);
    if (max <= 0) return List.of();
    return database.inTransaction(connection -> {
      try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
        claim.setObject(1, SqlTime.cutoff(dueBy));
        claim.setInt(2, max);
        claim.setString(3, owner);
        claim.setLong(4, micros(lease));
        List<Origin> origins = new ArrayList<>();
        try (ResultSet rows = claim.executeQuery()) {
          while (rows.next()) {
            epochs.put(rows.getString(1), rows.getLong(2));
            origins.add(Origin.ofUrl(rows.getString(1)));
          }
        }
        Collections.sort(origins);
        return origins;
      }
    });
  }

  List<Origin> renew(String owner, Duration lease) {
    checkOwner(owner);
    checkLease(lease);
    return database.inTransaction(connection -> {
      try (PreparedStatement renew = connection.prepareStatement("UPDATE origin_lease"
          + " SET expires_at = now() + ? * interval '1 microsecond' WHERE owner = ? RETURNING origin")) {
        renew.setLong(1, micros(lease));
        renew.setString(2, owner);
        return origins(renew);
      }
    });
  }

  boolean release(String owner, Origin origin, Release release) {
    checkOwner(owner);
    // Granted by a claim of this store, or (an origin never claimed here: a store used by hand)
    // whatever epoch the row has.
    Long epoch = epochs.get(origin.toString());
    boolean released = database.inTransaction(connection -> {
      try (PreparedStatement lock = connection.prepareStatement(
          "SELECT 1 FROM origin_lease WHERE origin = ? AND owner = ? AND (epoch = ? OR ?::bigint IS NULL) FOR UPDATE")) {
        lock.setString(1, origin.toString());
        lock.setString(2, owner);
        for (int i = 3; i <= 4; i++) {
          if (epoch != null) {
            lock.setLong(i, epoch);
          } else {
            lock.setNull(i, Types.BIGINT);
          }
        }
        try (ResultSet row = lock.executeQuery()) {
          if (!row.next()) return false;
        }
      }
      String until = switch (release) {
        case Release.Unfinished u -> UNFINISHED;
        case Release.DoneUntil d -> DONE_UNTIL;
        case Release.NothingDue n -> NOTHING_DUE;
        case Release.Resting r -> UNFINISHED;
      };
      String rest = release instanceof Release.Resting ? DONE_UNTIL : UNFINISHED;
      try (PreparedStatement update = connection.prepareStatement(RELEASE.formatted(until, rest))) {
        int i = 1;
        if (release instanceof Release.DoneUntil d) update.setObject(i++, SqlTime.cutoff(d.doneUntil()));
        if (release instanceof Release.Resting r) update.setObject(i++, SqlTime.cutoff(r.until()));
        if (release instanceof Release.NothingDue n) {
          update.setString(i++, origin.toString());
          update.setObject(i++, SqlTime.cutoff(n.cutoff()));
          update.setString(i++, origin.toString());
        }
        update.setString(i++, origin.toString());
        update.setString(i, owner); // the row is locked, its epoch checked: it cannot have moved
        return update.executeUpdate() == 1;
      }
    });
    if (released) epochs.remove(origin.toString(), epoch);
    return released;
  }

  /** Resting origins are few (those of blocked hosts): read them all, keep {@code which}'s. */
  int endRests(java.util.function.Predicate<Origin> which) {
    return database.inTransaction(connection -> {
      List<String> ending = new ArrayList<>();
      try (PreparedStatement select = connection.prepareStatement("SELECT origin FROM origin_lease WHERE " + RESTING);
          ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          if (which.test(Origin.ofUrl(rows.getString(1)))) ending.add(rows.getString(1));
        }
      }
      if (ending.isEmpty()) return 0;
      try (PreparedStatement update = connection.prepareStatement(
          "UPDATE origin_lease SET expires_at = now() WHERE origin = ANY (?) AND " + RESTING)) {
        update.setArray(1, connection.createArrayOf("text", ending.toArray()));
        return update.executeUpdate();
      }
    });
  }

  boolean othersHoldLeases(String owner) {
    checkOwner(owner);
    return database.inTransaction(connection -> {
      try (PreparedStatement select = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM origin_lease"
          + " WHERE expires_at >= now() AND owner IS NOT NULL AND owner <> ?)")) {
        select.setString(1, owner);
        try (ResultSet row = select.executeQuery()) {
          row.next();
          return row.getBoolean(1);
        }
      }
    });
  }

  // Taken when free (no row, or its lease expired) or already the owner's: one statement, so of two
  // owners asking at once one gets it (the row's lock orders them).
  private static final String HOLD_ADDRESS = """
      INSERT INTO address_lease AS a (address, owner, expires_at)
      VALUES (?, ?, now() + ? * interval '1 microsecond')
      ON CONFLICT (address) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE a.owner = excluded.owner OR a.expires_at < now()
      RETURNING owner
      """;

  /**
   * In a group's transaction ({@code groups}): taken every third of the lease per address in use,
   * about one call per two pages, so worth grouping. now() is the group's start, after the caller
   * sent the call, so the lease the caller counts from its sending ends first.
   */
  boolean holdAddress(String owner, String address, Duration lease, GroupCommitter groups) {
    checkOwner(owner);
    long micros = lease.toNanos() / 1000;
    return groups.submit(java.util.Optional.empty(), connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(HOLD_ADDRESS)) {
        upsert.setString(1, address);
        upsert.setString(2, owner);
        upsert.setLong(3, micros);
        try (ResultSet row = upsert.executeQuery()) {
          return row.next();
        }
      }
    });
  }

  void releaseAddress(String owner, String address) {
    checkOwner(owner);
    database.inTransaction(connection -> {
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM address_lease WHERE address = ? AND owner = ?")) {
        delete.setString(1, address);
        delete.setString(2, owner);
        delete.executeUpdate();
      }
      return null;
    });
  }

  private static List<Origin> origins(PreparedStatement statement) throws SQLException {
    List<Origin> origins = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) origins.add(Origin.ofUrl(rows.getString(1)));
    }
    Collections.sort(origins);
    return origins;
  }

  private static long micros(Duration duration) {
    return duration.toNanos() / 1000;
  }

  private static void checkOwner(String owner) {
    if (owner == null || owner.isBlank()) throw new IllegalArgumentException("owner must not be blank");
  }

  private static void checkLease(Duration lease) {
    if (lease.isNegative() || lease.isZero()) throw new IllegalArgumentException("lease must be positive: " + lease);
  }
}
