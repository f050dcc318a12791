package org.forager.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CompactStringsTest {

  @Test
  void containsExactlyTheStringsGivenDuplicatesOnce() {
    CompactStrings set = CompactStrings.of(List.of("https://b.example", "http://a.example", "https://b.example",
        "https://b.example:8080", ""));
    assertEquals(4, set.size());
    for (String s : List.of("https://b.example", "http://a.example", "https://b.example:8080", "")) {
      assertTrue(set.contains(s), s);
    }
    for (String s : List.of("https://b.exampl", "https://b.example:80", "http://a.example/", "HTTP://a.example", "z")) {
      assertFalse(set.contains(s), s);
    }
    assertFalse(CompactStrings.of(List.of()).contains("x"));
  }

  @Test
  void agreesWithAHashSetOnRandomStrings() {
    Random random = new Random(42);
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) strings.add(randomAscii(random));
    CompactStrings set = CompactStrings.of(strings);
    Set<String> expected = new HashSet<>(strings);
    assertEquals(expected.size(), set.size());
    for (String s : strings) assertTrue(set.contains(s));
    for (int i = 0; i < 5_000; i++) {
      String probe = randomAscii(random);
      assertEquals(expected.contains(probe), set.contains(probe), probe);
    }
  }

  @Test
  void refusesWhatIsNotAscii() {
    assertThrows(IllegalArgumentException.class, () -> CompactStrings.of(List.of("https://bücher.example")));
  }

  private static String randomAscii(Random random) {
    char[] chars = new char[random.nextInt(4)];
    for (int i = 0; i < chars.length; i++) chars[i] = (char) ('a' + random.nextInt(3));
    return new String(chars);
  }
}
