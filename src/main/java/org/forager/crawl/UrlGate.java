package org.forager.crawl;

import java.util.Optional;

/**
 * An extra gate of the embedding program's, asked after the configured local policy and before
 * robots.txt for every candidate about to be fetched. A refusal is a crawl action with outcome
 * {@code BLOCKED_URL_BY_LOCAL_POLICY} and the reason given. Must be thread-safe. An {@link Error} it
 * throws that the crawl can go on after (a stack overflow, an assertion) refuses the URL the same way,
 * its reason naming the error (docs/robustness.md, "Internal errors").
 */
@FunctionalInterface
public interface UrlGate {

  /** Why the URL must not be fetched, or empty to let it through. */
  Optional<String> refuse(String url, int depth);
}
