package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LinkHeaderTest {

  static Optional<String> canonical(String... values) {
    return LinkHeader.firstTarget(List.of(values), "canonical");
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "<https://e.org/c>; rel=canonical",
    "<https://e.org/c>; rel=\"canonical\"",
    "<https://e.org/c>;rel=CANONICAL",
    "  <https://e.org/c> ; rel = \"alternate  canonical\" ; title=x",
    "<https://e.org/c>; title=\"a, b; rel=next\"; rel=canonical",
    "<https://e.org/p>; rel=preload, <https://e.org/c>; rel=canonical",
    "<https://e.org/p>; rel=\"preload\"; as=style,<https://e.org/c>;rel=\"canonical\"",
    "garbage, <https://e.org/c>; rel=canonical",
    "<https://e.org/c>; rel=\"can\\onical\"",
  })
  void findsTheCanonicalTarget(String value) {
    assertEquals(Optional.of("https://e.org/c"), canonical(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "",
    "<https://e.org/c>",
    "<https://e.org/c>; rel=canonicalize",
    "<https://e.org/c>; rel=\"noncanonical\"",
    "<https://e.org/c>; rev=canonical",
    "<https://e.org/c>; title=\"rel=canonical\"",
    "<https://e.org/c>; rel=next; rel=canonical",
    "<>; rel=canonical",
    "<https://e.org/c; rel=canonical",
  })
  void findsNothing(String value) {
    assertEquals(Optional.empty(), canonical(value));
  }

  @Test
  void targetsWithCommasAreKeptWhole() {
    assertEquals(Optional.of("https://e.org/a,b"), canonical("<https://e.org/a,b>; rel=canonical"));
  }

  @Test
  void theFirstHeaderValueWithACanonicalWins() {
    assertEquals(Optional.of("/second"),
        canonical("</first>; rel=next", "</second>; rel=canonical", "</third>; rel=canonical"));
  }
}
