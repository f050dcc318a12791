package org.forager.dedup;

import static org.forager.dedup.Shingles.FNV_BASIS;
import static org.forager.dedup.Shingles.FNV_PRIME;
import static org.forager.dedup.WordChars.NONE;

import java.util.OptionalLong;

/**
 * {@link SimHash}'s reading of HTML from UTF-8 bytes, without decoding them into a String first:
 * the same words, so the same simhash, as reading {@code new String(bytes, UTF_8)}: a character is
 * what that decoder makes of the bytes ({@link Utf8Chars}). One instance reads one page.
 */
final class Utf8Html {

  /** The bytes {@link #asciiText} reads at once: one bit each in a long. */
  private static final int SPAN = Long.SIZE;

  private final byte[] b;
  private final WordHashes words;
  private final ByteClasses classes;

  private Utf8Html(byte[] b, WordHashes words, ByteClasses classes) {
    this.b = b;
    this.words = words.of(b);
    this.classes = classes.of(b);
  }

  /** The simhash of UTF-8 HTML; empty with fewer than {@value Shingles#SHINGLE} words. */
  static OptionalLong simhash(byte[] b) {
    Workspace workspace = Workspace.take();
    try {
      new Utf8Html(b, workspace.words, workspace.classes).read();
      workspace.words.flush();
      return workspace.shingles.simhash();
    } finally {
      workspace.give();
    }
  }

  private void read() {
    int n = b.length;
    int i = 0;
    while (i < n) {
      byte c = b[i];
      if (c == '<') {
        i = skipMarkup(b, i);
      } else if (c == '&') {
        i = skipReference(b, i);
      } else {
        // From WIDTH on: WordHashes loads the WIDTH bytes that end a word.
        int next = c >= 0 && i >= WordHashes.WIDTH && i + SPAN <= n ? asciiText(i) : i;
        i = next > i ? next : word(i);
      }
    }
  }

  /**
   * Adds the words of the ASCII text at {@code i}, reading 64 bytes at most and no further than the
   * first {@code '<'}, {@code '&'} or non-ASCII byte, and the word that goes on in a non-ASCII byte;
   * returns where it stopped ({@code i} when it could not tell where the first word ends). Text takes
   * no branch per byte, nor a mispredicted one per word: a bit per byte marks letters and digits, and
   * each word is a run of set bits.
   */
  private int asciiText(int i) {
    classes.cover(i, SPAN);
    long letters = 0;
    long stops = 0;
    for (int j = 0; j < SPAN; j += Long.BYTES) {
      long x = classes.load(i + j);
      letters |= Swar.mask(x & Swar.TOPS) << j;
      long stop = x << 1 & Swar.TOPS; // '<', '&', non-ASCII
      if (stop != 0) { // once a span at most, so predicted right; the bytes after it are not read
        stops = Swar.mask(stop) << j;
        break;
      }
    }
    int end = Long.numberOfTrailingZeros(stops); // 64 when there is none
    letters &= (stops & -stops) - 1; // the bits below the first stop: all when none
    // A word reaching the end may go on past it, unless a tag or a reference follows.
    boolean open = end == SPAN || b[i + end] < 0;
    long firsts = letters & ~(letters << 1);
    long lasts = letters & ~(letters >>> 1);
    int next = i + end;
    if (open && end > 0 && (lasts >>> (end - 1) & 1) != 0) {
      // The last word may go on. In a non-ASCII char, it is read on from there, its ASCII start
      // hashed without reading it again; past 64 bytes, it is left to the next read.
      int first = Long.SIZE - 1 - Long.numberOfLeadingZeros(firsts);
      firsts &= ~(1L << first);
      lasts &= ~(1L << (end - 1));
      if (end < SPAN) {
        words.addAscii(i, firsts, lasts);
        return goOn(i + end, WordHashes.asciiHash(FNV_BASIS, b, i + first, i + end));
      }
      next = i + first;
    }
    words.addAscii(i, firsts, lasts);
    return next;
  }

  /** Adds the word at {@code i} and returns its end; {@code i + 1} when no word starts there. */
  private int word(int i) {
    // Before WIDTH, WordHashes cannot load a word's last bytes: those words go char by char.
    if (b[i] >= 0 || i < WordHashes.WIDTH) return word(b, i, words);
    int lower = Utf8Chars.nonAsciiLowerCase(b, i);
    if (lower == NONE) return i + 1;
    return goOn(i + Utf8Chars.width(b[i]), (FNV_BASIS ^ lower) * FNV_PRIME);
  }

  /**
   * Adds the word whose chars before {@code i} hash to {@code h}, going on at {@code i}, and returns
   * its end; {@code i} at {@link WordHashes#WIDTH} or later. Its non-ASCII letters are hashed one by
   * one; a run of ASCII letters and digits is found by the byte classes, not byte by byte, and the
   * run that ends the word goes to WordHashes' columns with the hash so far as its seed. So a word
   * with an accented letter takes no loop over its ASCII letters, nor a mispredicted exit from one.
   */
  private int goOn(int i, long h) {
    int n = b.length;
    while (true) {
      int lower;
      while (i < n && b[i] < 0 && (lower = Utf8Chars.nonAsciiLowerCase(b, i)) != NONE) {
        h = (h ^ lower) * FNV_PRIME;
        i += Utf8Chars.width(b[i]);
      }
      int run = i < n && WordChars.asciiLowerCase(b[i]) != NONE ? asciiRunEnd(i) : i;
      if (run == i || run == n || b[run] >= 0) { // the word ends: all but "été" and the like
        words.add(h, i, run);
        return run;
      }
      h = WordHashes.asciiHash(h, b, i, run);
      i = run;
    }
  }

  /** The end of the ASCII letters and digits from {@code i}. */
  private int asciiRunEnd(int i) {
    int n = b.length;
    for (; i + Long.BYTES <= n; i += Long.BYTES) {
      classes.cover(i, Long.BYTES);
      long others = ~classes.load(i) & Swar.TOPS;
      if (others != 0) return i + (Long.numberOfTrailingZeros(others) >>> 3);
    }
    while (i < n && WordChars.asciiLowerCase(b[i]) != NONE) i++;
    return i;
  }

  /** Adds the word at {@code i}, char by char, and returns its end; {@code i + 1} when no word starts there. */
  private static int word(byte[] b, int i, WordHashes words) {
    int n = b.length;
    int start = i;
    long h = FNV_BASIS;
    while (i < n) {
      int lower = WordChars.asciiLowerCase(b[i]);
      if (lower != NONE) {
        i++;
      } else if (b[i] < 0 && (lower = Utf8Chars.nonAsciiLowerCase(b, i)) != NONE) {
        i += Utf8Chars.width(b[i]);
      } else {
        break;
      }
      h = (h ^ lower) * FNV_PRIME;
    }
    if (i == start) return i + 1; // no letter or digit: a word boundary
    words.add(h);
    return i;
  }

  /** Past a character reference starting at {@code i}: a word boundary, its name is no word. */
  private static int skipReference(byte[] b, int i) {
    int n = b.length;
    int end = i + 1;
    for (int chars = 1; end < n && chars < 32; chars++) { // 31 chars, as the String reading counts
      if (b[end] == '#' || WordChars.asciiLowerCase(b[end]) != NONE) {
        end++;
      } else if (b[end] < 0 && Utf8Chars.nonAsciiLowerCase(b, end) != NONE) {
        end += Utf8Chars.width(b[end]);
      } else {
        break;
      }
    }
    return end < n && b[end] == ';' ? end + 1 : i + 1;
  }

  /** Past a tag, comment or declaration starting at {@code i}; past its element for script and style. */
  private static int skipMarkup(byte[] b, int i) {
    if (startsWith(b, i, "<!--")) {
      // The first "-->" from i + 4: the first '>' from i + 6 with "--" before it.
      for (int end = Swar.indexOf(b, '>', i + 6); end >= 0; end = Swar.indexOf(b, '>', end + 1)) {
        if (b[end - 1] == '-' && b[end - 2] == '-') return end + 1;
      }
      return b.length;
    }
    int end = Swar.indexOf(b, '>', i + 1);
    if (end < 0) return b.length;
    if (isStartTag(b, i + 1, "script")) return rawTextEnd(b, end + 1, "script");
    if (isStartTag(b, i + 1, "style")) return rawTextEnd(b, end + 1, "style");
    return end + 1;
  }

  /** Whether the tag name at {@code at} is {@code name} (lower-case ASCII), in any case. */
  private static boolean isStartTag(byte[] b, int at, String name) {
    int after = at + name.length();
    return asciiMatchesIgnoringCase(b, at, name) && (after >= b.length || !isWordChar(b, after));
  }

  /** Where the text of a script or style element from {@code from} ends: at its end tag. */
  private static int rawTextEnd(byte[] b, int from, String name) {
    // Script and style hold no text a reader sees; their content ends at the matching end tag.
    for (int close = Swar.indexOf(b, '<', from); close >= 0; close = Swar.indexOf(b, '<', close + 1)) {
      if (close + 1 < b.length && b[close + 1] == '/' && asciiMatchesIgnoringCase(b, close + 2, name)) return close;
    }
    return b.length;
  }

  private static boolean isWordChar(byte[] b, int i) {
    return WordChars.asciiLowerCase(b[i]) != NONE || (b[i] < 0 && Utf8Chars.nonAsciiLowerCase(b, i) != NONE);
  }

  private static boolean asciiMatchesIgnoringCase(byte[] b, int at, String name) {
    if (at + name.length() > b.length) return false;
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
}
