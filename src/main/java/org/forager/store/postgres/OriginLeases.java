package org.forager.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.forager.url.Origin;

/**
 * The {@code origin_lease} table: which crawler process may crawl an origin, until when (the
 * database server's clock). The contracts are on {@link PostgresCrawlStore}'s lease methods.
 * Safe for concurrent use, within a process and across processes.
 */
final class OriginLeases {

  private static final String CLAIM = """
      WITH free AS (
        SELECT origin FROM origin_lease
        WHERE expires_at < now()
        ORDER BY expires_at, origin
        LIMIT ?
        FOR UPDATE SKIP LOCKED
      )
      UPDATE origin_lease l SET owner = ?, expires_at = now() + ? * interval '1 microsecond'
      FROM free WHERE l.origin = free.origin
      RETURNING l.origin
      """;

  private final Database database;

  OriginLeases(Database database) {
    this.database = database;
  }

  List<Origin> claim(String owner, int max, Duration lease) {
    checkOwner(owner);
    checkLease(lease);
    if (max <= 0) return List.of();
    return database.inTransaction(connection -> {
      try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
        claim.setInt(1, max);
        claim.setString(2, owner);
        claim.setLong(3, micros(lease));
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

  boolean release(String owner, Origin origin) {
    checkOwner(owner);
    return database.inTransaction(connection -> {
      try (PreparedStatement release = connection.prepareStatement("UPDATE origin_lease"
          + " SET owner = NULL, expires_at = now() WHERE origin = ? AND owner = ?")) {
        release.setString(1, origin.toString());
        release.setString(2, owner);
        return release.executeUpdate() == 1;
      }
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
