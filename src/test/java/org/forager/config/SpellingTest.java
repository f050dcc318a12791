package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpellingTest {

  private static final List<String> KEYS = List.of("min_delay", "max_delay", "max_retry_after");

  @Test
  void suggestsTheClosestKeyWithinTwoEdits() {
    assertEquals(Optional.of("min_delay"), Spelling.closest("min_dealy", KEYS));
    assertEquals(Optional.of("max_delay"), Spelling.closest("maxdelay", KEYS));
    assertEquals(Optional.of("min_delay"), Spelling.closest("MIN_DELAY", KEYS));
  }

  @Test
  void suggestsNothingFartherThanTwoEdits() {
    assertEquals(Optional.empty(), Spelling.closest("delay", KEYS));
  }

  @Test
  void prefersTheFirstKnownKeyOnATie() {
    // One substitution from both min_delay and max_delay.
    assertEquals(Optional.of("min_delay"), Spelling.closest("mix_delay", KEYS));
    assertEquals(Optional.of("max_delay"), Spelling.closest("mix_delay", List.of("max_delay", "min_delay")));
  }

  @Test
  void distanceCountsInsertionsDeletionsAndSubstitutions() {
    assertEquals(0, Spelling.distance("abc", "abc"));
    assertEquals(1, Spelling.distance("politness", "politeness"));
    assertEquals(2, Spelling.distance("ab", "ba"));
    assertEquals(3, Spelling.distance("", "abc"));
  }
}
