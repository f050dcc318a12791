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
    int[] votes = new int[64];
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
        while (end < n && end - i < 32 && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '#')) end++;
        i = end < n && s.charAt(end) == ';' ? end + 1 : i + 1;
        continue;
      }
      if (!Character.isLetterOrDigit(c)) {
        i++;
        continue;
      }
      long h = 0xcbf29ce484222325L; // FNV-1a 64 of the lower-cased word
      while (i < n && Character.isLetterOrDigit(s.charAt(i))) {
        h = (h ^ Character.toLowerCase(s.charAt(i))) * 0x100000001b3L;
        i++;
      }
      words++;
      if (words >= SHINGLE) vote(votes, mix(w1 * 0x9E3779B97F4A7C15L + w2 * 0xC2B2AE3D27D4EB4FL + h));
      w1 = w2;
      w2 = h;
    }
    if (words < SHINGLE) return OptionalLong.empty();
    long hash = 0;
    for (int bit = 0; bit < 64; bit++) if (votes[bit] > 0) hash |= 1L << bit;
    return OptionalLong.of(hash);
  }

  private static void vote(int[] votes, long feature) {
    for (int bit = 0; bit < 64; bit++) votes[bit] += (feature >>> bit & 1) != 0 ? 1 : -1;
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
