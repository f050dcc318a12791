package org.forager.store;

import java.time.Instant;
import java.util.Comparator;
import org.forager.url.Origin;

/**
 * An origin on the store's agenda ({@link CrawlStore#agenda}): it may have work from {@code at} on.
 * {@link #NEW_WORK} for an origin holding never-crawled URLs (work at once, whatever the time).
 * Entries order by time, then origin (the serialized form's bytes, which for ASCII origins is the
 * strings' order): the agenda's order.
 */
public record AgendaEntry(Instant at, Origin origin) implements Comparable<AgendaEntry> {

  /** The time of an origin with never-crawled URLs: before any recrawl's due time. */
  public static final Instant NEW_WORK = Instant.EPOCH;

  private static final Comparator<AgendaEntry> ORDER =
      Comparator.comparing(AgendaEntry::at).thenComparing(e -> e.origin().toString());

  public AgendaEntry {
    java.util.Objects.requireNonNull(at, "at");
    java.util.Objects.requireNonNull(origin, "origin");
  }

  /** The entry of an origin with new work. */
  public static AgendaEntry newWork(Origin origin) {
    return new AgendaEntry(NEW_WORK, origin);
  }

  @Override
  public int compareTo(AgendaEntry other) {
    return ORDER.compare(this, other);
  }
}
