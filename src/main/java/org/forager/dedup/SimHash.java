package org.forager.dedup;

import java.nio.charset.Charset;
import java.util.OptionalLong;

/**
 * Charikar's simhash ("Similarity estimation techniques from rounding algorithms", STOC 2002) of an
 * HTML page's text, as Manku, Jain and Das Sarma used it for web crawling ("Detecting
 * near-duplicates for web crawling", WWW 2007): pages whose simhashes differ in at most 3 of 64 bits
 * are near-duplicates.
 *
 * <p>The text is read in one pass over the decoded HTML, without building a tree: markup, comments
 * and the content of {@code script} and {@code style} elements are skipped, character references
 * separate words, a word is a run of letters and digits, lower-cased. The features are the
 * shingles of 3 consecutive words. Stateless and thread-safe.
 */
public final class SimHash {

  /** Fewer words than one shingle: no simhash, since an empty text would match every other. */
  static final int SHINGLE = 3;

  private SimHash() {}

  /** The simhash of an HTML body decoded with {@code charset}; empty with fewer than 3 words of text. */
  public static OptionalLong ofHtml(byte[] body, Charset charset) {
    return ofWords(new String(body, charset), true);
  }

  /** The simhash of plain text; empty with fewer than 3 words. */
  public static OptionalLong ofText(String text) {
    return ofWords(text, false);
  }

  /** How many bits two simhashes differ in. */
  public static int distance(long a, long b) {
    return Long.bitCount(a ^ b);
  }

  private static OptionalLong ofWords(String s, boolean html) {
    Votes votes = new Votes();
    long w1 = 0;
    long w2 = 0;
    int words = 0;
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (html && c == '<') {
        i = skipMarkup(s, i);
        continue;
      }
      if (html && c == '&') {
        // A character reference: a word boundary, its name is no word.
        int end = i + 1;
        while (end < n && end - i < 32 && (isWordChar(s.charAt(end)) || s.charAt(end) == '#')) end++;
        i = end < n && s.charAt(end) == ';' ? end + 1 : i + 1;
        continue;
      }
      if (!isWordChar(c)) {
        i++;
        continue;
      }
      long h = 0xcbf29ce484222325L; // FNV-1a 64 of the lower-cased word
      while (i < n && isWordChar(c = s.charAt(i))) {
        h = (h ^ lowerCase(c)) * 0x100000001b3L;
        i++;
      }
      words++;
      if (words >= SHINGLE) votes.add(mix(w1 * 0x9E3779B97F4A7C15L + w2 * 0xC2B2AE3D27D4EB4FL + h));
      w1 = w2;
      w2 = h;
    }
    if (words < SHINGLE) return OptionalLong.empty();
    return OptionalLong.of(votes.majority());
  }

  // ASCII first: the text of most pages is, and the Character methods cost a table walk per char.
  private static boolean isWordChar(char c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return Character.isLetterOrDigit(c);
  }

  private static char lowerCase(char c) {
    if (c < 0x80) return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    return Character.toLowerCase(c);
  }

  /**
   * Per bit of the features, whether more features have it set than not. Counted bit-sliced: plane
   * j holds bit j of all 64 counters, so adding a feature is a ripple-carry add across planes (two
   * planes on average) instead of 64 counter updates.
   */
  private static final class Votes {
    private final long[] planes = new long[Integer.SIZE];
    private int features;

    void add(long feature) {
      long carry = feature;
      for (int j = 0; carry != 0; j++) {
        long overflow = planes[j] & carry;
        planes[j] ^= carry;
        carry = overflow;
      }
      features++;
    }

    /** Bit b is set when more than half of the features have bit b set (a tie leaves it clear). */
    long majority() {
      long hash = 0;
      for (int bit = 0; bit < 64; bit++) {
        long ones = 0;
        for (int j = 0; j < planes.length; j++) ones |= (planes[j] >>> bit & 1L) << j;
        if (2 * ones > features) hash |= 1L << bit;
      }
      return hash;
    }
  }

  /** A finalizer (SplitMix64's): every input bit flips each output bit with probability about 1/2. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Past a tag, comment or declaration starting at {@code i}; past its element for script and style. */
  private static int skipMarkup(String s, int i) {
    if (s.startsWith("<!--", i)) {
      int end = s.indexOf("-->", i + 4);
      return end < 0 ? s.length() : end + 3;
    }
    int end = s.indexOf('>', i + 1);
    if (end < 0) return s.length();
    String raw = rawTextElement(s, i + 1);
    if (raw != null) {
      // Script and style hold no text a reader sees; their content ends at the matching end tag.
      for (int close = s.indexOf("</", end + 1); close >= 0; close = s.indexOf("</", close + 2)) {
        if (s.regionMatches(true, close + 2, raw, 0, raw.length())) return close;
      }
      return s.length();
    }
    return end + 1;
  }

  private static String rawTextElement(String s, int nameStart) {
    for (String name : new String[] {"script", "style"}) {
      int after = nameStart + name.length();
      if (s.regionMatches(true, nameStart, name, 0, name.length())
          && (after >= s.length() || !Character.isLetterOrDigit(s.charAt(after)))) {
        return name;
      }
    }
    return null;
  }
}
