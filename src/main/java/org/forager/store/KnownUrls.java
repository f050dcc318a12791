package org.forager.store;

/**
 * A bounded cache of URLs the store knows, so that deduplication does not look up the same
 * popular URLs (navigation links, repeated on every page of a site) in the database again and
 * again. Exact: an entry is the URL itself, compared with {@code equals}, and a URL once known is
 * known for ever, so a hit is always right; a miss only means "ask the database". Direct-mapped:
 * a URL goes to one slot chosen by its hash and replaces whatever was there, so the cache holds
 * at most {@value #SLOTS} URLs (about 140 MB of heap for 90-byte URLs) and needs no eviction
 * bookkeeping. Thread-safe without locks: slots are written racily, and a reader sees either a
 * whole {@code String} (immutable, so safely published) or another one or none.
 */
final class KnownUrls {

  static final int SLOTS = 1 << 20;

  private final String[] slots = new String[SLOTS];

  boolean contains(String url) {
    String cached = slots[slot(url)];
    return cached != null && cached.equals(url);
  }

  void add(String url) {
    slots[slot(url)] = url;
  }

  private static int slot(String url) {
    int h = url.hashCode();
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
