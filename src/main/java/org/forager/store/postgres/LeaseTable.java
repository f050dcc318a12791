package org.forager.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
      UPDATE origin_lease l SET owner = ?, expires_at = now() + ? * interval '1 microsecond', done_until = NULL
      FROM free WHERE l.origin = free.origin
      RETURNING l.origin
      """;

  // The done_until of each kind of release. NOTHING_DUE runs in a statement of its own after the
  // row is locked: READ COMMITTED gives it a snapshot that sees every URL added by a transaction
  // that locked the row before us (PostgresCrawlStore's INSERT_NEW locks it to reopen the origin).
  private static final String UNFINISHED = "NULL::timestamptz";
  private static final String DONE_UNTIL = "?::timestamptz";
  private static final String NOTHING_DUE = """
      CASE WHEN EXISTS (SELECT 1 FROM crawl_due WHERE origin = ? AND due_at <= ?) THEN NULL::timestamptz
           ELSE coalesce((SELECT min(due_at) FROM crawl_due WHERE origin = ?), 'infinity') END""";

  private static final String RELEASE = """
      UPDATE origin_lease SET owner = NULL, done_until = d.until, expires_at = greatest(now(), d.until)
      FROM (SELECT %s AS until) d
      WHERE origin = ? AND owner = ?
      """;

  private final Database database;

  LeaseTable(Database database) {
    this.database = database;
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
        return origins(claim);
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
    return database.inTransaction(connection -> {
      try (PreparedStatement lock = connection.prepareStatement(
          "SELECT 1 FROM origin_lease WHERE origin = ? AND owner = ? FOR UPDATE")) {
        lock.setString(1, origin.toString());
        lock.setString(2, owner);
        try (ResultSet row = lock.executeQuery()) {
          if (!row.next()) return false;
        }
      }
      String until = switch (release) {
        case Release.Unfinished u -> UNFINISHED;
        case Release.DoneUntil d -> DONE_UNTIL;
        case Release.NothingDue n -> NOTHING_DUE;
      };
      try (PreparedStatement update = connection.prepareStatement(RELEASE.formatted(until))) {
        int i = 1;
        if (release instanceof Release.DoneUntil d) update.setObject(i++, SqlTime.cutoff(d.doneUntil()));
        if (release instanceof Release.NothingDue n) {
          update.setString(i++, origin.toString());
          update.setObject(i++, SqlTime.cutoff(n.cutoff()));
          update.setString(i++, origin.toString());
        }
        update.setString(i++, origin.toString());
        update.setString(i, owner);
        return update.executeUpdate() == 1;
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

  boolean holdAddress(String owner, String address, Duration lease) {
    checkOwner(owner);
    long micros = lease.toNanos() / 1000;
    return database.inTransaction(connection -> {
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
