package org.forager.sitemap;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/** Looks at the bytes of a sitemap before any parser does: what it is, and whether it is refused. */
final class Prolog {

  private static final byte[] DOCTYPE = "<!doctype".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENTITY = "<!entity".getBytes(StandardCharsets.US_ASCII);

  private Prolog() {}

  /** Why the content must not reach the XML parser, if it must not. */
  static Optional<String> refusal(byte[] content) {
    if (notAsciiCompatible(content)) return Optional.of("not UTF-8: UTF-16 and UTF-32 sitemaps are refused");
    String start = start(content, 64).toLowerCase(Locale.ROOT);
    if (start.startsWith("<!doctype html") || start.startsWith("<html")) {
      return Optional.of("not a sitemap: an HTML page");
    }
    // Anywhere, not only in the prolog: a parser must never be handed one, whatever it would do with it.
    if (indexOfIgnoreCase(content, DOCTYPE) >= 0 || indexOfIgnoreCase(content, ENTITY) >= 0) {
      return Optional.of("refused: a DOCTYPE or entity declaration (external entities and entity"
          + " expansion are never processed)");
    }
    return Optional.empty();
  }

  /** Whether the first character after a byte order mark and white space is '&lt;'. */
  static boolean looksLikeXml(byte[] content) {
    return start(content, 1).equals("<");
  }

  /** Up to {@code length} characters after a UTF-8 byte order mark and leading white space. */
  private static String start(byte[] content, int length) {
    int i = content.length >= 3 && (content[0] & 0xff) == 0xef && (content[1] & 0xff) == 0xbb
        && (content[2] & 0xff) == 0xbf ? 3 : 0;
    while (i < content.length && (content[i] == ' ' || content[i] == '\t' || content[i] == '\r'
        || content[i] == '\n')) i++;
    return new String(content, i, Math.min(length, content.length - i), StandardCharsets.ISO_8859_1);
  }

  /** UTF-16 or UTF-32, with or without a byte order mark: a NUL or FE FF / FF FE in the first 4 bytes. */
  private static boolean notAsciiCompatible(byte[] content) {
    if (content.length >= 2) {
      int b0 = content[0] & 0xff;
      int b1 = content[1] & 0xff;
      if ((b0 == 0xfe && b1 == 0xff) || (b0 == 0xff && b1 == 0xfe)) return true;
    }
    for (int i = 0; i < Math.min(4, content.length); i++) if (content[i] == 0) return true;
    return false;
  }

  /** The first index of {@code lowerAscii} in {@code content}, ASCII case ignored; -1 if none. */
  private static int indexOfIgnoreCase(byte[] content, byte[] lowerAscii) {
    outer:
    for (int i = 0; i + lowerAscii.length <= content.length; i++) {
      for (int j = 0; j < lowerAscii.length; j++) {
        int b = content[i + j];
        if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
        if (b != lowerAscii[j]) continue outer;
      }
      return i;
    }
    return -1;
  }
}
