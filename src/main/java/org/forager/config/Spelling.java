package org.forager.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Suggests the known key a misspelt one was meant to be. Stateless. */
final class Spelling {

  /** Farther than this, a suggestion is more likely to confuse than to help. */
  static final int MAX_DISTANCE = 2;

  private Spelling() {}

  /**
   * The known key closest to {@code key} by edit distance, ignoring case, when it is at most {@link
   * #MAX_DISTANCE} away; the first in {@code known} on a tie.
   */
  static Optional<String> closest(String key, List<String> known) {
    String best = null;
    int bestDistance = MAX_DISTANCE + 1;
    for (String candidate : known) {
      int distance = distance(key.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) previous[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
