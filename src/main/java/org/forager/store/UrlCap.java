package org.forager.store;

/**
 * {@code limits.max_urls_per_origin}: the most URLs a store keeps of one origin (crawled, refused and
 * waiting), and who hears of the new ones it drops past that. What bounds the disk a site minting links
 * without end takes: a page of 40,000 new links on each of 100,000 pages a run is four billion URLs.
 * Seeds (depth 0) are never dropped; a URL the store knows keeps its record whatever the count.
 *
 * @param perOrigin the most URLs of one origin kept, at least 1
 * @param dropped told of each origin's dropped URLs, from inside the store's write (no I/O there)
 */
public record UrlCap(long perOrigin, Dropped dropped) {

  /** No cap: what a store applies until told otherwise (export, status, tests). */
  public static final UrlCap NONE = new UrlCap(Long.MAX_VALUE, (origin, count) -> {});

  public UrlCap {
    if (perOrigin < 1) throw new IllegalArgumentException("perOrigin must be at least 1: " + perOrigin);
  }

  /** Hears of new URLs of an origin not stored because the origin holds {@link #perOrigin} already. */
  @FunctionalInterface
  public interface Dropped {
    void dropped(String origin, int count);
  }
}
