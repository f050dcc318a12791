package org.forager.dedup;

import static org.forager.dedup.Shingles.FNV_BASIS;
import static org.forager.dedup.Shingles.FNV_PRIME;
import static org.forager.dedup.WordChars.NONE;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
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
 * shingles of 3 consecutive words. The values never change between versions: stored simhashes are
 * compared with new ones. Stateless and thread-safe.
 */
public final class SimHash {

  private SimHash() {}

  /** The simhash of an HTML body decoded with {@code charset}; empty with fewer than 3 words of text. */
  public static OptionalLong ofHtml(byte[] body, Charset charset) {
    // UTF-8, most of the web, is read as bytes: no decoded copy, same value as decoding first.
    if (charset.equals(StandardCharsets.UTF_8)) return ofUtf8(body);
    // So is a page of ASCII alone in windows-1252 and the like: it decodes to the same chars.
    if (PureAscii.decodesAsUtf8(charset) && PureAscii.is(body)) return ofUtf8(body);
    return ofWords(new String(body, charset), true);
  }

  /** UTF-8 HTML's simhash: by the native library where it is used, else in Java (the same value). */
  private static OptionalLong ofUtf8(byte[] body) {
    Optional<OptionalLong> computed = NativeSimHash.of(body);
    return computed.isPresent() ? computed.get() : Utf8Html.simhash(body);
  }

  /** The simhash of HTML already decoded: what {@link #ofHtml} computes for any charset. */
  static OptionalLong ofDecodedHtml(String html) {
    return ofWords(html, true);
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
    Workspace workspace = Workspace.take();
    try {
      return ofWords(s, html, workspace.shingles);
    } finally {
      workspace.give();
    }
  }

  private static OptionalLong ofWords(String s, boolean html, Shingles shingles) {
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (html && c == '<') {
        i = skipMarkup(s, i);
        continue;
      }
      if (html && c == '&') {
        i = skipReference(s, i);
        continue;
      }
      int lower = WordChars.lowerCase(c);
      if (lower == NONE) {
        i++;
        continue;
      }
      long h = FNV_BASIS;
      do {
        h = (h ^ lower) * FNV_PRIME;
        i++;
      } while (i < n && (lower = WordChars.lowerCase(s.charAt(i))) != NONE);
      shingles.add(h);
    }
    return shingles.simhash();
  }

  /** Past a character reference starting at {@code i}: a word boundary, its name is no word. */
  private static int skipReference(String s, int i) {
    int n = s.length();
    int end = i + 1;
    while (end < n && end - i < 32 && (s.charAt(end) == '#' || WordChars.lowerCase(s.charAt(end)) != NONE)) end++;
    return end < n && s.charAt(end) == ';' ? end + 1 : i + 1;
  }

  /** Past a tag, comment or declaration starting at {@code i}; past its element for script and style. */
  private static int skipMarkup(String s, int i) {
    if (s.startsWith("<!--", i)) {
      int end = s.indexOf("-->", i + 4);
      return end < 0 ? s.length() : end + 3;
    }
    int end = s.indexOf('>', i + 1);
    if (end < 0) return s.length();
    if (isStartTag(s, i + 1, "script")) return rawTextEnd(s, end + 1, "script");
    if (isStartTag(s, i + 1, "style")) return rawTextEnd(s, end + 1, "style");
    return end + 1;
  }

  /** Whether the tag name at {@code at} is {@code name} (lower-case ASCII), in any case. */
  private static boolean isStartTag(String s, int at, String name) {
    int after = at + name.length();
    return asciiMatchesIgnoringCase(s, at, name)
        && (after >= s.length() || WordChars.lowerCase(s.charAt(after)) == NONE);
  }

  /** Where the text of a script or style element from {@code from} ends: at its end tag. */
  private static int rawTextEnd(String s, int from, String name) {
    // Script and style hold no text a reader sees; their content ends at the matching end tag.
    for (int close = s.indexOf("</", from); close >= 0; close = s.indexOf("</", close + 2)) {
      if (asciiMatchesIgnoringCase(s, close + 2, name)) return close;
    }
    return s.length();
  }

  /** Whether {@code name} (lower-case ASCII) is at {@code at}, ASCII letters in any case, as HTML tag names are. */
  private static boolean asciiMatchesIgnoringCase(String s, int at, String name) {
    if (at + name.length() > s.length()) return false;
    for (int k = 0; k < name.length(); k++) {
      char c = s.charAt(at + k);
      if (c != name.charAt(k) && c != name.charAt(k) - ('a' - 'A')) return false;
    }
    return true;
  }
}
