package org.forager.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Turns the fuzzer's bytes into text. Every input is one of: random bytes read as UTF-8 (malformed
 * sequences become U+FFFD), random UTF-16 text, a soup of tokens from a vocabulary mixed with short
 * random strings, or such a soup repeated into a huge input. The fuzzer picks the mode, so coverage
 * guidance steers between them.
 */
final class Soup {

  /** Longest random text, in chars or bytes; libFuzzer's inputs are small anyway. */
  static final int MAX_RANDOM = 1024;

  private Soup() {}

  /**
   * Text in any of the modes. One input in 1024 is huge: a soup repeated to 1 KiB .. {@code maxHuge}
   * chars (log-uniform). A huge input takes up to a hundred milliseconds under instrumentation where
   * the others take tens of microseconds: any more of them and they would use most of the fuzzing time.
   */
  static String text(FuzzedDataProvider data, List<String> vocabulary, int maxHuge) {
    int mode = data.consumeInt(0, 1023);
    // Not 0: that is what an exhausted input gives, and short inputs are the most common.
    if (mode == 1023) return repeat(tokens(data, vocabulary, 16), hugeLength(data, maxHuge));
    return switch (mode % 4) {
      case 0 -> new String(data.consumeBytes(MAX_RANDOM), StandardCharsets.UTF_8);
      case 1 -> data.consumeString(MAX_RANDOM);
      default -> tokens(data, vocabulary, 64);
    };
  }

  /** A power of two from 1 KiB to {@code max}. */
  static int hugeLength(FuzzedDataProvider data, int max) {
    int maxShift = 31 - Integer.numberOfLeadingZeros(max);
    return 1 << data.consumeInt(Math.min(10, maxShift), maxShift);
  }

  /** Up to {@code maxTokens} pieces, each a vocabulary token or (one in eight) a short random string. */
  static String tokens(FuzzedDataProvider data, List<String> vocabulary, int maxTokens) {
    StringBuilder out = new StringBuilder();
    int count = data.consumeInt(0, maxTokens);
    for (int i = 0; i < count && data.remainingBytes() > 0; i++) {
      if (data.consumeInt(0, 7) == 7) {
        out.append(data.consumeString(8));
      } else {
        out.append(data.pickValue(vocabulary));
      }
    }
    return out.toString();
  }

  /** {@code text} repeated up to about {@code length} chars, at least once. */
  static String repeat(String text, int length) {
    if (text.isEmpty()) return text;
    return text.repeat(Math.max(1, length / text.length()));
  }
}
