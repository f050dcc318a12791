package org.forager.extract;

import org.jsoup.nodes.Element;
import org.jsoup.nodes.Entities;
import org.jsoup.nodes.Range;
import org.jsoup.parser.Parser;

/**
 * Reads attribute values as the HTML tokenizer decodes them, correcting the two places where jsoup's
 * value differs from a browser's:
 *
 * <ul>
 *   <li>{@code &#0;} is U+0000 in jsoup and U+FFFD in HTML (no attribute value holds U+0000 after
 *       tokenizing: a raw one is U+FFFD too), so every U+0000 becomes U+FFFD;
 *   <li>a legacy named reference without {@code ;} followed by {@code -} or {@code _} ({@code &amp_},
 *       {@code &not-}, {@code &reg_id=}) is decoded by HTML ({@code &_}, {@code ¬-}, {@code ®_id=}), since
 *       only {@code =} or an alphanumeric after it keeps it literal; jsoup keeps it literal. Its decoded
 *       value alone cannot tell {@code &amp_} from a correctly decoded {@code &amp;amp_}, so a value that
 *       holds such a sequence only marks the page: the extractor then parses it again with source
 *       positions and this class decodes the raw text of each value itself ({@link #exact}).
 * </ul>
 * One instance per parse; not thread-safe.
 */
final class AttributeValues {

  private final String source;
  private boolean suspect;

  private AttributeValues(String source) {
    this.source = source;
  }

  /** Values as jsoup decoded them (U+0000 corrected); {@link #sawSuspectReference} tells when that is not enough. */
  static AttributeValues decoded() {
    return new AttributeValues(null);
  }

  /** Values decoded from their raw text in {@code source}, which was parsed with position tracking on. */
  static AttributeValues exact(String source) {
    return new AttributeValues(source);
  }

  String of(Element el, String attribute) {
    String value = el.attr(attribute);
    if (value.indexOf('&') >= 0) {
      if (source == null) {
        suspect |= legacyReferenceBeforeDashOrUnderscore(value) >= 0;
      } else {
        Range.AttributeRange range = el.attributes().sourceRange(attribute);
        if (range.valueRange().isTracked()) {
          String raw = source.substring(range.valueRange().startPos(), range.valueRange().endPos());
          value = Parser.unescapeEntities(terminateLegacyReferences(raw), true);
        }
      }
    }
    return value.indexOf('\0') >= 0 ? value.replace('\0', '\uFFFD') : value;
  }

  /** Whether a value read in {@link #decoded} mode may be decoded unlike a browser. */
  boolean sawSuspectReference() {
    return suspect;
  }

  /** Adds the {@code ;} HTML implies after each legacy reference followed by {@code -} or {@code _}. */
  static String terminateLegacyReferences(String raw) {
    int at = legacyReferenceBeforeDashOrUnderscore(raw);
    if (at < 0) return raw;
    StringBuilder fixed = new StringBuilder(raw.length() + 4);
    int copied = 0;
    while (at >= 0) {
      fixed.append(raw, copied, at).append(';');
      copied = at;
      at = legacyReferenceBeforeDashOrUnderscore(raw, at);
    }
    return fixed.append(raw, copied, raw.length()).toString();
  }

  private static int legacyReferenceBeforeDashOrUnderscore(String s) {
    return legacyReferenceBeforeDashOrUnderscore(s, 0);
  }

  /**
   * The index just after the name of the first {@code &name} at or after {@code from} where the name is
   * a legacy (no-semicolon) entity and the next character is {@code -} or {@code _}; -1 when none.
   * Names are read as jsoup's tokenizer reads them: ASCII letters, then digits.
   */
  private static int legacyReferenceBeforeDashOrUnderscore(String s, int from) {
    int amp = s.indexOf('&', from);
    while (amp >= 0) {
      int end = amp + 1;
      while (end < s.length() && isAsciiLetter(s.charAt(end))) end++;
      while (end < s.length() && s.charAt(end) >= '0' && s.charAt(end) <= '9') end++;
      if (end > amp + 1 && end < s.length() && (s.charAt(end) == '-' || s.charAt(end) == '_')
          && Entities.isBaseNamedEntity(s.substring(amp + 1, end))) {
        return end;
      }
      amp = s.indexOf('&', end);
    }
    return -1;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
