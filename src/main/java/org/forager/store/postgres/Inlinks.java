package org.forager.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts a page's links into the known, never-crawled URLs it links to, at the page's first crawl
 * ({@link org.forager.store.CrawlStore#record}): one more inlink each, and the larger of the stored
 * priority and the link's ranking at the new count. Two statements in the caller's transaction: the
 * rows are locked and read in (origin, URL) order, so two pages counting overlapping links wait for
 * each other rather than deadlock, then written in one batch. Stateless.
 */
final class Inlinks {

  // FOR UPDATE under READ COMMITTED rechecks each row's latest version: a URL crawled meanwhile
  // drops out, an inlink counted meanwhile is read.
  private static final String LOCK = """
      SELECT d.origin, d.url, d.depth, d.inlinks, d.priority
      FROM unnest(?::text[], ?::text[]) AS c(origin, url)
      JOIN crawl_due d ON d.origin = c.origin AND d.url = c.url
      WHERE d.fetch_count = 0
      ORDER BY d.origin, d.url
      FOR UPDATE OF d
      """;

  private static final String UPDATE = """
      UPDATE crawl_due d SET inlinks = c.inlinks, priority = c.priority
      FROM unnest(?::text[], ?::text[], ?::integer[], ?::integer[]) AS c(origin, url, inlinks, priority)
      WHERE d.origin = c.origin AND d.url = c.url
      """;

  private Inlinks() {}

  /**
   * Counts one inlink into each of {@code links} not {@code added} by this transaction (those were
   * stored with theirs) that is known and never crawled.
   */
  static void count(Connection connection, CandidateRows links, boolean[] added) throws SQLException {
    List<String> origins = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < added.length; i++) {
      if (added[i]) continue;
      origins.add(links.origins()[i]);
      urls.add(links.urls()[i]);
    }
    if (urls.isEmpty()) return;
    List<String> lockedOrigins = new ArrayList<>();
    List<String> lockedUrls = new ArrayList<>();
    List<Integer> inlinks = new ArrayList<>();
    List<Integer> priorities = new ArrayList<>();
    try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
      lock.setArray(1, connection.createArrayOf("text", origins.toArray()));
      lock.setArray(2, connection.createArrayOf("text", urls.toArray()));
      try (ResultSet rows = lock.executeQuery()) {
        while (rows.next()) {
          String origin = rows.getString(1);
          String url = rows.getString(2);
          int count = rows.getInt(4) + 1;
          // The stored depth is the URL's first sighting's, perhaps not this link's.
          int ranked = links.priority(links.indexOf(origin, url), rows.getInt(3), count);
          lockedOrigins.add(origin);
          lockedUrls.add(url);
          inlinks.add(count);
          priorities.add(Math.max(rows.getInt(5), ranked));
        }
      }
    }
    if (lockedUrls.isEmpty()) return;
    try (PreparedStatement update = connection.prepareStatement(UPDATE)) {
      update.setArray(1, connection.createArrayOf("text", lockedOrigins.toArray()));
      update.setArray(2, connection.createArrayOf("text", lockedUrls.toArray()));
      update.setArray(3, connection.createArrayOf("integer", inlinks.toArray()));
      update.setArray(4, connection.createArrayOf("integer", priorities.toArray()));
      update.executeUpdate();
    }
  }
}
