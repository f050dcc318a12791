package org.forager.store;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.forager.url.Origin;

/**
 * Validates the candidates of one call and removes the duplicates among them, before the store
 * takes its write lock (so the lock is held only for the lookup and the write). Stateless.
 */
final class CandidateBatch {

  private CandidateBatch() {}

  /**
   * The candidates by URL, in first-seen order; a URL given twice keeps its shallowest depth.
   * {@code except} (the URL being recorded) is left out.
   *
   * @throws IllegalArgumentException when a URL is not absolute or contains NUL, or a depth is
   *     outside 0..65535
   */
  static Map<String, Pending> unique(Collection<Candidate> candidates, Optional<String> except) {
    Map<String, Pending> unique = new LinkedHashMap<>(candidates.size() * 2);
    String lastOrigin = null; // most of a page's links are to one origin: its string made once
    for (Candidate candidate : candidates) {
      Objects.requireNonNull(candidate.discoveredFrom(), "discoveredFrom");
      String url = candidate.url();
      if (except.isPresent() && except.get().equals(url)) continue;
      Pending known = unique.get(url);
      if (known != null && known.candidate().depth() <= candidate.depth()) continue;
      if (candidate.depth() < 0 || candidate.depth() > Keys.MAX_DEPTH) {
        throw new IllegalArgumentException("depth out of range 0.." + Keys.MAX_DEPTH + ": " + candidate);
      }
      String origin = known != null ? known.origin() : isOf(url, lastOrigin) ? checked(url, lastOrigin) : origin(url);
      lastOrigin = origin;
      unique.put(url, new Pending(candidate, known != null ? known.urlKey() : Keys.url(url), origin));
    }
    return unique;
  }

  /**
   * Whether the URL is of {@code origin} (a serialized origin): it starts with it, then a path, a query,
   * a fragment or nothing. Such a URL's origin is that one.
   */
  private static boolean isOf(String url, String origin) {
    if (origin == null || !url.startsWith(origin)) return false;
    if (url.length() == origin.length()) return true;
    char next = url.charAt(origin.length());
    return next == '/' || next == '?' || next == '#';
  }

  /** {@code origin}, once the URL is checked as {@link #origin} checks it. */
  private static String checked(String url, String origin) {
    if (url.indexOf('\0') >= 0) throw new IllegalArgumentException("URL contains NUL: " + url);
    return origin;
  }

  /** The serialized origin of a URL, checking it can be a key. */
  static String origin(String url) {
    Objects.requireNonNull(url, "url");
    if (url.indexOf('\0') >= 0) throw new IllegalArgumentException("URL contains NUL: " + url);
    int authorityEnd = plainAuthorityEnd(url);
    return authorityEnd > 0 ? url.substring(0, authorityEnd) : Origin.ofUrl(url).toString();
  }

  /**
   * Where the authority of an http(s) URL ends when it is a plain lower-case host name (no user
   * information, no IPv6 literal) with no port or a port other than the scheme's default written
   * without leading zeros, so that the URL's prefix up to there is its serialized origin as {@link
   * Origin#toString()} writes it; -1 otherwise. Saves parsing the origin of every discovered link,
   * nearly all of which are like this.
   */
  private static int plainAuthorityEnd(String url) {
    int start = url.startsWith("https://") ? 8 : url.startsWith("http://") ? 7 : -1;
    if (start < 0) return -1;
    for (int i = start; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') return i;
      if (c == ':') return portEnd(url, i + 1, start == 8 ? 443 : 80);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-')) return -1;
    }
    return url.length();
  }

  /** Where a port written from {@code from} ends, when Origin would write it the same; -1 otherwise. */
  private static int portEnd(String url, int from, int defaultPort) {
    int port = 0;
    int i = from;
    for (; i < url.length() && i - from <= 5; i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') break;
      if (c < '0' || c > '9' || c == '0' && i == from) return -1;
      port = port * 10 + (c - '0');
    }
    boolean ended = i == url.length() || "/?#".indexOf(url.charAt(i)) >= 0;
    return ended && i > from && port <= 65_535 && port != defaultPort ? i : -1;
  }
}
