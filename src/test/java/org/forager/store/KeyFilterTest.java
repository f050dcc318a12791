package org.forager.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The key filter never says "absent" of a key it was given, and says it of most others. */
class KeyFilterTest {

  @Test
  void everyKeyAddedMayBeThereAndFewOthersSeemSo() {
    KeyFilter filter = new KeyFilter(1 << 20);
    long keys = KeyFilter.designedKeys(1 << 20);
    for (long i = 0; i < keys; i++) filter.add(key("https://a" + (i % 1000) + ".example/p/" + i + ".html"));
    for (long i = 0; i < keys; i++) {
      assertTrue(filter.mayContain(key("https://a" + (i % 1000) + ".example/p/" + i + ".html")), "lost key " + i);
    }
    int falsePositives = 0;
    int asked = 200_000;
    for (int i = 0; i < asked; i++) {
      if (filter.mayContain(key("https://a" + (i % 1000) + ".example/q/" + i + ".html"))) falsePositives++;
    }
    assertTrue(falsePositives < asked * 3 / 100, falsePositives + " false positives of " + asked);
  }

  @Test
  void keysOfEveryLengthAndByteAreHashedWhole() {
    KeyFilter filter = new KeyFilter(1 << 16);
    byte[] base = new byte[40];
    for (int length = 0; length <= 40; length++) {
      byte[] key = java.util.Arrays.copyOf(base, length);
      filter.add(key);
      assertTrue(filter.mayContain(key));
    }
    // A key differing from an added one in any single byte is another key: seldom taken for it.
    int seemed = 0;
    for (int i = 0; i < 40; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] other = base.clone();
        other[i] ^= (byte) (1 << bit);
        if (filter.mayContain(other)) seemed++;
      }
    }
    assertTrue(seemed < 10, seemed + " of 320 one-bit neighbours seemed added");
  }

  @Test
  void aFilterIsAskedOnlyOnceCompleteAndWhileNotOverfull() {
    KeyFilter filter = new KeyFilter(1 << 20);
    assertFalse(filter.useful(0), "not complete: its absent answers are not exact yet");
    filter.complete();
    assertTrue(filter.useful(4 * KeyFilter.designedKeys(1 << 20)));
    assertFalse(filter.useful(4 * KeyFilter.designedKeys(1 << 20) + 1));
  }

  private static byte[] key(String url) {
    return url.getBytes(UTF_8);
  }
}
