package org.forager.extract;

import java.util.List;
import java.util.Optional;
import java.util.SequencedSet;

/**
 * What the extractor reads from one HTML document, before any URL is resolved: link targets as
 * written, the first {@code <base href>}, the first canonical link in the head, the robots meta
 * directives for us, and the {@code iframe srcdoc} documents. Resolution happens afterwards, once the
 * base is known, because a {@code <base>} applies to links before it too. Two readers produce it: the
 * streaming {@link StreamScan} and, where a page needs a tree, the jsoup DOM walk {@link PageScan}.
 */
interface DocumentScan {

  /** Link targets as written, in document order, each once, rel=nofollow ones left out. */
  SequencedSet<String> hrefs();

  /** The refresh metas' URLs as written ({@link RefreshUrls}): the first that resolves is a link. */
  List<String> refreshUrls();

  /** The {@code srcdoc} of each {@code iframe} that has one, in document order: documents of their own. */
  List<String> srcdocs();

  Optional<String> baseHref();

  Optional<String> canonicalHref();

  /** {@link RobotsDirectives} bits from the robots meta tags for everyone or for us. */
  int robots();
}
