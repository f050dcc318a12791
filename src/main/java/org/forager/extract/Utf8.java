package org.forager.extract;

/** UTF-8 validity of page bytes, for the encoding fallback. Stateless. */
final class Utf8 {

  private Utf8() {}

  /**
   * Whether {@code b} is well-formed UTF-8 (Unicode Table 3-7: no overlong forms, surrogates or code
   * points past U+10FFFF). A sequence cut off by the end counts as valid: bodies are often truncated
   * at the size limit, and that must not change how the rest is read.
   */
  static boolean isValid(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int length;
      int min2 = 0x80;
      int max2 = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
      } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) min2 = 0xA0;
        if (c == 0xED) max2 = 0x9F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) min2 = 0x90;
        if (c == 0xF4) max2 = 0x8F;
      } else {
        return false;
      }
      for (int k = 1; k < length; k++) {
        if (i + k >= n) return true;
        int next = b[i + k] & 0xFF;
        if (k == 1 ? next < min2 || next > max2 : next < 0x80 || next > 0xBF) return false;
      }
      i += length;
    }
    return true;
  }
}
