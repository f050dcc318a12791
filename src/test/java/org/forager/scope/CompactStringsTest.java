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
  void aPrefixOfAProbeIsFoundOnlyWhenItIsAStringOfTheSet() {
    CompactStrings set = CompactStrings.of(List.of("http://a.example", "http://a.example:81"));
    assertTrue(set.containsPrefix("http://a.example/page", 16));
    assertTrue(set.containsPrefix("http://a.example:81/", 19));
    assertFalse(set.containsPrefix("http://a.example:81/", 18));
    assertFalse(set.containsPrefix("http://a.exampl/", 15));
    assertFalse(set.containsPrefix("http://a.example\u00e9", 17));
  }

  @Test
  void stringsWhoseHashesCollideAreAllFoundAndTold() {
    // "Aa" and "BB" have the same String.hashCode, so every concatenation of them does too: all 1,024
    // land in one chain of the table.
    List<String> colliding = new ArrayList<>();
    for (int bits = 0; bits < 1 << 10; bits++) {
      StringBuilder s = new StringBuilder();
      for (int k = 0; k < 10; k++) s.append((bits >> k & 1) == 0 ? "Aa" : "BB");
      colliding.add(s.toString());
    }
    CompactStrings set = CompactStrings.of(colliding.subList(0, 512));
    for (String s : colliding.subList(0, 512)) assertTrue(set.contains(s), s);
    for (String s : colliding.subList(512, 1024)) assertFalse(set.contains(s), s);
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
