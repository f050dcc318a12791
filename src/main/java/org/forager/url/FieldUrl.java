package org.forager.url;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A URL from an HTTP field ({@code Location}, {@code Link}) in the form to resolve it from. Fields are
 * read byte for byte as ISO-8859-1, but a server that writes a non-ASCII URL there writes UTF-8 (what
 * browsers read it as: WHATWG Fetch, web-platform-tests {@code redirect-location-escape}); resolving
 * the ISO-8859-1 text would encode every such byte a second time ({@code é} as {@code %C3%83%C2%A9},
 * not {@code %C3%A9}), and the link would lead elsewhere. Bytes that are not UTF-8 are kept as bytes,
 * percent-encoded one each, as browsers send them. Stateless.
 */
public final class FieldUrl {

  private FieldUrl() {}

  /** The field's URL text as a browser reads it; the same string when it is all ASCII. */
  public static String text(String field) {
    boolean ascii = true;
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c > 0xFF) return field; // not read from bytes: text already
      ascii &= c < 0x80;
    }
    if (ascii) return field;
    byte[] bytes = field.getBytes(StandardCharsets.ISO_8859_1);
    try {
      CharBuffer utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
      return utf8.toString();
    } catch (CharacterCodingException e) {
      StringBuilder escaped = new StringBuilder(field.length() + 16);
      for (byte b : bytes) {
        if (b >= 0) escaped.append((char) b);
        else PercentEncoding.appendByte(escaped, b & 0xFF);
      }
      return escaped.toString();
    }
  }
}
