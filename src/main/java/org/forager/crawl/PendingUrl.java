package org.forager.crawl;

import org.forager.store.DueCandidate;

/** A URL of the origin taken for this run, and which attempt at it comes next (1 for the first). */
record PendingUrl(DueCandidate candidate, int attempt) {

  PendingUrl next() {
    return new PendingUrl(candidate, attempt + 1);
  }
}
