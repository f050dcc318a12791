package org.forager.status;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * JSON string escapes for text that crawled sites choose (URLs, error messages): besides what JSON
 * requires (quote, backslash, C0 controls), {@code < > & '}, DEL, the C1 controls and the line and
 * paragraph separators U+2028/U+2029 are written as {@code \\uXXXX}. The JSON stays valid and means the
 * same; a byte sequence that some reader could take for markup or a line break never appears raw.
 */
final class HtmlSafeEscapes extends CharacterEscapes {

  private final int[] ascii;

  HtmlSafeEscapes() {
    ascii = standardAsciiEscapesForJSON();
    for (char c : new char[] {'<', '>', '&', '\'', 0x7f}) ascii[c] = ESCAPE_STANDARD;
  }

  @Override
  public int[] getEscapeCodesForAscii() {
    return ascii;
  }

  @Override
  public SerializableString getEscapeSequence(int ch) {
    boolean escaped = (ch >= 0x80 && ch <= 0x9f) || ch == 0x2028 || ch == 0x2029;
    return escaped ? new SerializedString(String.format("\\u%04x", ch)) : null;
  }
}
