package org.forager.extract;

import org.jsoup.nodes.Entities;

/**
 * Decodes an attribute value as written in the source into the value the HTML tokenizer gives it
 * (WHATWG HTML 13.2.5.72 "character reference state", as consumed in an attribute): named references
 * with {@code ;}; a legacy name without {@code ;} ({@code &amp}, {@code &not}, {@code &reg}) unless
 * {@code =} or a letter or digit follows it; numeric references, where 0, surrogates and values past
 * U+10FFFF are U+FFFD and 0x80–0x9F are read as windows-1252; and a raw NUL is U+FFFD. The entity
 * table is jsoup's (the standard's). Stateless.
 */
final class AttributeDecoder {

  /** HTML 13.2.5.80: numeric references to the C1 controls 0x80–0x9F mean windows-1252's characters. */
  private static final char[] WINDOWS_1252_C1 = {
    '\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
    '\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
    '\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
    '\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178'
  };

  private AttributeDecoder() {}

  /** The value of the source text {@code s[start, end)}. */
  static String decode(Markup s, int start, int end) {
    int special = next(s, start, end);
    if (special == end) return s.text(start, end);
    StringBuilder out = new StringBuilder(end - start);
    int i = start;
    while (i < end) {
      // Text between references is decoded a run at a time: each run lies between two ASCII characters.
      s.appendText(out, i, special);
      i = special;
      if (i == end) break;
      if (s.at(i) == '\0') {
        out.append('\uFFFD');
        i++;
      } else {
        i = reference(s, i + 1, end, out);
      }
      special = next(s, i, end);
    }
    return out.toString();
  }

  /** The position of the first {@code &} or NUL in {@code [i, end)}, or {@code end}. */
  private static int next(Markup s, int i, int end) {
    return s.until(i, end, Markup.AMPERSAND | Markup.NUL);
  }

  /** Appends what the reference after the {@code &} at {@code i - 1} means; returns where reading goes on. */
  private static int reference(Markup s, int i, int end, StringBuilder out) {
    if (i < end && s.at(i) == '#') return numeric(s, i + 1, end, out);
    int j = i;
    while (j < end && isAsciiAlphanumeric(s.at(j))) j++;
    if (j > i) {
      String name = s.text(i, j);
      if (j < end && s.at(j) == ';' && Entities.isNamedEntity(name)) {
        out.append(Entities.getByName(name));
        return j + 1;
      }
      // Only a legacy name read whole can match here: a shorter one would be followed by an alphanumeric.
      if ((j == end || s.at(j) != '=') && Entities.isBaseNamedEntity(name)) {
        out.append(Entities.getByName(name));
        return j;
      }
    }
    out.append('&');
    return i;
  }

  private static int numeric(Markup s, int i, int end, StringBuilder out) {
    boolean hex = i < end && (s.at(i) == 'x' || s.at(i) == 'X');
    int j = hex ? i + 1 : i;
    int digitsStart = j;
    int value = 0;
    for (; j < end; j++) {
      int digit = Character.digit(s.at(j), hex ? 16 : 10);
      if (digit < 0 || s.at(j) > 'f') break; // ASCII digits only (Character.digit takes others)
      value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000); // saturates: past U+10FFFF is all one
    }
    if (j == digitsStart) {
      // No digits: not a reference, "&#" (and the "x") stay as they are.
      out.append('&').append('#');
      return i;
    }
    if (j < end && s.at(j) == ';') j++;
    if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
      out.append('\uFFFD');
    } else if (value >= 0x80 && value <= 0x9F) {
      out.append(WINDOWS_1252_C1[value - 0x80]);
    } else {
      out.appendCodePoint(value);
    }
    return j;
  }

  private static boolean isAsciiAlphanumeric(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
