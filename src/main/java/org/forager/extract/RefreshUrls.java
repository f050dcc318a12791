package org.forager.extract;

import java.util.ArrayList;
import java.util.List;

/**
 * The URLs of a document's {@code <meta http-equiv=refresh>} elements a browser may follow, as written,
 * in document order: malformed ones left out, none after a reload of the page (which a browser does
 * instead). The first of them that resolves is where the page leads ({@link MetaRefresh}); the others
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
}
