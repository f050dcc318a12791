package org.forager.dedup;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Pages of ASCII bytes alone in a charset that decodes them as ASCII: they decode to the same chars
 * as in UTF-8, so {@link SimHash} reads them as UTF-8 bytes, without a decoded copy (many pages
 * labelled windows-1252 or ISO-8859-1 are). Stateless and thread-safe.
 */
final class PureAscii {

  /**
   * The charsets whose decoding of each ASCII byte is that byte, without state (ISO-2022's escapes
   * switch to other sets; EBCDIC and UTF-16 differ): checked once, for those this JDK has.
   */
  private static final Set<Charset> DECODING_AS_ASCII = Stream.concat(
          Stream.of("US-ASCII", "KOI8-R", "KOI8-U"),
          Stream.concat(
              Stream.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16).map(n -> "ISO-8859-" + n),
              Stream.of(0, 1, 2, 3, 4, 5, 6, 7, 8).map(n -> "windows-125" + n)))
      .filter(Charset::isSupported)
      .map(Charset::forName)
      .filter(PureAscii::decodesAsciiAsAscii)
      .collect(Collectors.toUnmodifiableSet());

  private PureAscii() {}

  /** Whether {@code charset} decodes a page of ASCII bytes alone as UTF-8 does. */
  static boolean decodesAsUtf8(Charset charset) {
    return DECODING_AS_ASCII.contains(charset);
  }

  /** Whether every byte of {@code b} is ASCII (below 0x80). */
  static boolean is(byte[] b) {
    int k = 0;
    for (; k + 64 <= b.length; k += 64) {
      // Eight loads or'ed, one branch per 64 bytes: a page of ASCII is read at memory speed.
      long any = Swar.load(b, k) | Swar.load(b, k + 8) | Swar.load(b, k + 16) | Swar.load(b, k + 24)
          | Swar.load(b, k + 32) | Swar.load(b, k + 40) | Swar.load(b, k + 48) | Swar.load(b, k + 56);
      if ((any & Swar.TOPS) != 0) return false;
    }
    long any = 0;
    for (; k < b.length; k++) any |= b[k]; // a negative byte sets every high bit
    return (any & Swar.TOPS) == 0;
  }

  private static boolean decodesAsciiAsAscii(Charset charset) {
    byte[] ascii = new byte[128];
    for (int c = 0; c < ascii.length; c++) ascii[c] = (byte) c;
    return Arrays.equals(new String(ascii, charset).getBytes(StandardCharsets.UTF_8), ascii);
  }
}
