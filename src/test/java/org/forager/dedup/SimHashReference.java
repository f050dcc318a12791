package org.forager.dedup;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * The pre-optimisation implementation of {@link SimHash} (session 7, issue 15), kept unchanged as
 * the oracle of SimHashReferenceTest: stored simhashes are compared across versions, so the faster
 * code must give exactly these values for every input. Do not "improve" this class.
 *
 * <p>Its original contract, unchanged: Charikar's simhash ("Similarity estimation techniques from
 * rounding algorithms", STOC 2002) of an HTML page's text, as Manku, Jain and Das Sarma used it
 * for web crawling ("Detecting near-duplicates for web crawling", WWW 2007): pages whose simhashes
 * differ in at most 3 of 64 bits are near-duplicates.
 *
 * <p>The text is read in one pass over the decoded HTML, without building a tree: markup, comments
 * and the content of {@code script} and {@code style} elements are skipped, character references
 * separate words, a word is a run of letters and digits, lower-cased. The features are the
 * shingles of 3 consecutive words. Stateless and thread-safe.
 */
final class SimHashReference {

  /** Fewer words than one shingle: no simhash, since an empty text would match every other. */
  static final int SHINGLE = 3;

  private SimHashReference() {}

  /** The simhash of an HTML body decoded with {@code charset}; empty with fewer than 3 words of text. */
  static OptionalLong ofHtml(byte[] body, Charset charset) {
    // UTF-8, most of the web, is read as bytes: no decoded copy, same value as decoding first.
    if (charset.equals(StandardCharsets.UTF_8)) return ofUtf8Html(body);
    return ofWords(new String(body, charset), true);
  }

  /** The simhash of HTML already decoded: what {@link #ofHtml} computes for any charset. */
  static OptionalLong ofDecodedHtml(String html) {
    return ofWords(html, true);
  }

  /** The simhash of plain text; empty with fewer than 3 words. */
  static OptionalLong ofText(String text) {
    return ofWords(text, false);
  }

  /** How many bits two simhashes differ in. */
  static int distance(long a, long b) {
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
      int used = Integer.SIZE - Integer.numberOfLeadingZeros(features); // no count exceeds features
      for (int bit = 0; bit < 64; bit++) {
        long ones = 0;
        for (int j = 0; j < used; j++) ones |= (planes[j] >>> bit & 1L) << j;
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
        if (asciiMatchesIgnoringCase(s, close + 2, raw)) return close;
      }
      return s.length();
    }
    return end + 1;
  }

  private static String rawTextElement(String s, int nameStart) {
    for (String name : new String[] {"script", "style"}) {
      int after = nameStart + name.length();
      if (asciiMatchesIgnoringCase(s, nameStart, name)
          && (after >= s.length() || !isWordChar(s.charAt(after)))) {
        return name;
      }
    }
    return null;
  }

  /** Whether {@code name} (lower-case ASCII) is at {@code at}, ASCII letters in any case, as HTML tag names are. */
  private static boolean asciiMatchesIgnoringCase(String s, int at, String name) {
    if (at < 0 || at + name.length() > s.length()) return false;
    for (int k = 0; k < name.length(); k++) {
      char c = s.charAt(at + k);
      if (c != name.charAt(k) && c != name.charAt(k) - ('a' - 'A')) return false;
    }
    return true;
  }

  // --- The same reading of UTF-8 bytes, without decoding them into a String first.
  // A character is what new String(bytes, UTF_8) would make of the bytes: a valid one- to three-byte
  // sequence is its BMP char; anything else (a four-byte sequence, whose surrogates are no letters,
  // or malformed bytes, which decode to U+FFFD) separates words. SimHashTest checks the two agree.

  private static final int NOT_A_WORD_CHAR = -1;

  private static OptionalLong ofUtf8Html(byte[] b) {
    Votes votes = new Votes();
    long w1 = 0;
    long w2 = 0;
    int words = 0;
    int n = b.length;
    int i = 0;
    while (i < n) {
      int c = b[i];
      if (c == '<') {
        i = skipMarkup(b, i);
        continue;
      }
      if (c == '&') {
        int end = i + 1;
        for (int chars = 1; end < n && chars < 32; chars++) {
          if (b[end] == '#') {
            end++;
          } else if (wordChar(b, end) != NOT_A_WORD_CHAR) {
            end += width(b[end]);
          } else {
            break;
          }
        }
        i = end < n && b[end] == ';' ? end + 1 : i + 1;
        continue;
      }
      int wc = wordChar(b, i);
      if (wc == NOT_A_WORD_CHAR) {
        i++;
        continue;
      }
      long h = 0xcbf29ce484222325L; // FNV-1a 64 of the lower-cased word
      do {
        h = (h ^ lowerCase((char) wc)) * 0x100000001b3L;
        i += width(b[i]);
      } while (i < n && (wc = wordChar(b, i)) != NOT_A_WORD_CHAR);
      words++;
      if (words >= SHINGLE) votes.add(mix(w1 * 0x9E3779B97F4A7C15L + w2 * 0xC2B2AE3D27D4EB4FL + h));
      w1 = w2;
      w2 = h;
    }
    if (words < SHINGLE) return OptionalLong.empty();
    return OptionalLong.of(votes.majority());
  }

  /** The letter or digit encoded at {@code i}, or {@link #NOT_A_WORD_CHAR}. */
  private static int wordChar(byte[] b, int i) {
    int b0 = b[i];
    if (b0 >= 0) return isWordChar((char) b0) ? b0 : NOT_A_WORD_CHAR;
    int lead = b0 & 0xFF;
    char c;
    if (lead >= 0xC2 && lead <= 0xDF) {
      if (i + 1 >= b.length || !continuation(b[i + 1])) return NOT_A_WORD_CHAR;
      c = (char) ((lead & 0x1F) << 6 | (b[i + 1] & 0x3F));
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      if (i + 2 >= b.length || !continuation(b[i + 1]) || !continuation(b[i + 2])) return NOT_A_WORD_CHAR;
      int second = b[i + 1] & 0xFF;
      if (lead == 0xE0 && second < 0xA0) return NOT_A_WORD_CHAR; // overlong
      if (lead == 0xED && second > 0x9F) return NOT_A_WORD_CHAR; // a surrogate
      c = (char) ((lead & 0x0F) << 12 | (second & 0x3F) << 6 | (b[i + 2] & 0x3F));
    } else {
      return NOT_A_WORD_CHAR;
    }
    return Character.isLetterOrDigit(c) ? c : NOT_A_WORD_CHAR;
  }

  /** The length of the sequence a word character starts with (only called on one). */
  private static int width(byte lead) {
    if (lead >= 0) return 1;
    return (lead & 0xE0) == 0xC0 ? 2 : 3;
  }

  private static boolean continuation(byte b) {
    return (b & 0xC0) == 0x80;
  }

  private static int skipMarkup(byte[] b, int i) {
    if (startsWith(b, i, "<!--")) {
      int end = indexOf(b, "-->", i + 4);
      return end < 0 ? b.length : end + 3;
    }
    int end = indexOf(b, '>', i + 1);
    if (end < 0) return b.length;
    String raw = rawTextElement(b, i + 1);
    if (raw != null) {
      for (int close = indexOf(b, "</", end + 1); close >= 0; close = indexOf(b, "</", close + 2)) {
        if (asciiMatchesIgnoringCase(b, close + 2, raw)) return close;
      }
      return b.length;
    }
    return end + 1;
  }

  private static String rawTextElement(byte[] b, int nameStart) {
    for (String name : new String[] {"script", "style"}) {
      int after = nameStart + name.length();
      if (asciiMatchesIgnoringCase(b, nameStart, name)
          && (after >= b.length || wordChar(b, after) == NOT_A_WORD_CHAR)) {
        return name;
      }
    }
    return null;
  }

  private static boolean asciiMatchesIgnoringCase(byte[] b, int at, String name) {
    if (at < 0 || at + name.length() > b.length) return false;
    for (int k = 0; k < name.length(); k++) {
      int c = b[at + k];
      if (c != name.charAt(k) && c != name.charAt(k) - ('a' - 'A')) return false;
    }
    return true;
  }

  private static boolean startsWith(byte[] b, int at, String ascii) {
    if (at + ascii.length() > b.length) return false;
    for (int k = 0; k < ascii.length(); k++) if (b[at + k] != ascii.charAt(k)) return false;
    return true;
  }

  private static int indexOf(byte[] b, char ascii, int from) {
    for (int k = from; k < b.length; k++) if (b[k] == ascii) return k;
    return -1;
  }

  private static int indexOf(byte[] b, String ascii, int from) {
    char first = ascii.charAt(0);
    for (int k = from; k + ascii.length() <= b.length; k++) {
      if (b[k] == first && startsWith(b, k, ascii)) return k;
    }
    return -1;
  }
}
