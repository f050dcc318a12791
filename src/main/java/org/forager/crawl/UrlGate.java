package org.forager.crawl;

import java.util.Optional;

/**
 * An extra gate of the embedding program's, asked after the configured local policy and before
 * robots.txt for every candidate about to be fetched. A refusal is a crawl action with outcome
 * {@code BLOCKED_URL_BY_LOCAL_POLICY} and the reason given. Must be thread-safe. An exception it throws
 * (a {@code NullPointerException}: a bug), or an {@link Error} the crawl can go on after (a stack
 * overflow, an assertion), refuses the URL the same way, its reason naming it, and counts among the
 * run's unexpected errors (docs/robustness.md, "Internal errors"); an output failure it throws (an
 * {@code UncheckedIOException}) stops the crawl.
 */
@FunctionalInterface
public interface UrlGate {

  /** Why the URL must not be fetched, or empty to let it through. */
  Optional<String> refuse(String url, int depth);
}
