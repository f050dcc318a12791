package org.forager.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;
import org.forager.fetch.Outcome;
import org.forager.store.CrawlRecord;
import org.forager.store.StoreException;

/** Reads a {@link CrawlRecord} from the columns of {@code crawl_history}. Stateless. */
final class CrawlRecordRows {

  /** The columns, in the order {@link #read} expects and the store's insert binds them. */
  static final String COLUMNS = "fetched_at, fetched_at_nanos, outcome, http_status, duration_ms,"
      + " content_type, content_length, digest, redirect_to, canonical, noindex, nofollow, etag,"
      + " last_modified, next_fetch_at, next_fetch_at_nanos, duplicate_of, simhash";

  private CrawlRecordRows() {}

  /** {@link #COLUMNS}, each qualified by a table alias. */
  static String columns(String alias) {
    return alias + "." + COLUMNS.replace(", ", ", " + alias + ".");
  }

  /** The record in the current row, whose columns are named as in {@link #COLUMNS}. */
  static CrawlRecord read(String url, ResultSet row) throws SQLException {
    return new CrawlRecord(
        url,
        SqlTime.getExact(row, "fetched_at"),
        outcome(row.getString("outcome")),
        row.getInt("http_status"),
        row.getLong("duration_ms"),
        Optional.ofNullable(row.getString("content_type")),
        row.getLong("content_length"),
        Optional.ofNullable(row.getString("digest")),
        Optional.ofNullable(row.getString("redirect_to")),
        Optional.ofNullable(row.getString("canonical")),
        row.getBoolean("noindex"),
        row.getBoolean("nofollow"),
        Optional.ofNullable(row.getString("etag")),
        Optional.ofNullable(row.getString("last_modified")),
        SqlTime.getExact(row, "next_fetch_at"),
        Optional.ofNullable(row.getString("duplicate_of")),
        simhash(row));
  }

  private static OptionalLong simhash(ResultSet row) throws SQLException {
    long value = row.getLong("simhash");
    return row.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
  }

  private static Outcome outcome(String name) {
    try {
      return Outcome.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new StoreException("unknown outcome in the crawl database: " + name, e);
    }
  }
}
