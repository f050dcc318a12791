package org.forager.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The URLs of a document's {@code <meta http-equiv=refresh>} elements a browser may follow, as written,
 * in document order: malformed ones left out, none after a reload of the page (which a browser does
 * instead). Where the page leads is the first of them a browser follows ({@link #followed}); the others
 * are kept only because a browser skips one whose URL does not parse, which is known once the base
 * is. One instance per document; not thread-safe.
 */
final class RefreshUrls {

  /** Refreshes read at most: a page with more than a few is hostile or broken. */
  private static final int MAX = 8;

  private final List<String> urls = new ArrayList<>(0);
  private boolean ended;

  /** Reads the {@code content} of a refresh meta. */
  void read(String content) {
    if (ended) return;
    MetaRefresh.target(content).ifPresent(url -> {
      if (url.isEmpty()) ended = true;
      else urls.add(url);
      if (urls.size() == MAX) ended = true;
    });
  }

  List<String> urls() {
    return urls;
  }

  /**
   * Where a browser's refresh goes, of {@code urls} (as {@link #urls} gives them): the first that
   * parses against {@code base} and is not a {@code javascript:} URL (HTML skips the others). Empty when
   * there is none, and when that one is not an http(s) URL or is longer than {@code maxUrlLength}: a
   * browser goes there (to a {@code mailto:} URL, say), so no later refresh counts either.
   */
  static Optional<String> followed(List<String> urls, DocumentBase base, int maxUrlLength) {
    for (String url : urls) {
      if (DocumentBase.scheme(url).equals("javascript")) continue;
      Optional<String> link = base.resolve(url);
      if (link.isPresent()) return link.filter(target -> target.length() <= maxUrlLength);
      if (base.parses(url)) return Optional.empty();
    }
    return Optional.empty();
  }
}
