package org.forager.sitemap;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The first bytes of a sitemap, looked at before any parser sees them: what it is, and whether it is
 * refused. (A DOCTYPE or entity declaration anywhere is {@link XmlGuard}'s to refuse.) Immutable.
 */
final class Prolog {

  private static final int HEAD = 64;

  private final byte[] first; // the first bytes as they came
  private final byte[] head; // the first bytes after a UTF-8 byte order mark and white space

  private Prolog(byte[] first, byte[] head) {
    this.first = first;
    this.head = head;
  }

  /**
   * Reads the start of {@code in} and leaves it at the first byte after a UTF-8 byte order mark and
   * leading white space (which an XML parser refuses before {@code <?xml}). Leading white space is
   * read byte by byte up to whatever cap {@code in} has, never kept.
   */
  static Prolog read(BufferedInputStream in) throws IOException {
    in.mark(4);
    byte[] first = in.readNBytes(4);
    in.reset();
    in.mark(3);
    byte[] bom = in.readNBytes(3);
    if (!(bom.length == 3 && (bom[0] & 0xff) == 0xef && (bom[1] & 0xff) == 0xbb && (bom[2] & 0xff) == 0xbf)) {
      in.reset();
    }
    while (true) {
      in.mark(1);
      int b = in.read();
      if (b == -1) break;
      if (!(b == ' ' || b == '\t' || b == '\r' || b == '\n')) {
        in.reset();
        break;
      }
    }
    in.mark(HEAD);
    byte[] head = in.readNBytes(HEAD);
    in.reset();
    return new Prolog(first, head);
  }

  /** Why the content must not reach a parser, if it must not. */
  Optional<String> refusal() {
    if (Gzip.isGzip(first)) return Optional.of("gzip inside gzip");
    if (notAsciiCompatible()) return Optional.of("not UTF-8: UTF-16 and UTF-32 sitemaps are refused");
    String start = new String(head, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    if (start.startsWith("<!doctype html") || start.startsWith("<html")) {
      return Optional.of("not a sitemap: an HTML page");
    }
    return Optional.empty();
  }

  /** Whether the first character after a byte order mark and white space is '&lt;'. */
  boolean looksLikeXml() {
    return head.length > 0 && head[0] == '<';
  }

  /** UTF-16 or UTF-32, with or without a byte order mark: a NUL or FE FF / FF FE in the first 4 bytes. */
  private boolean notAsciiCompatible() {
    if (first.length >= 2) {
      int b0 = first[0] & 0xff;
      int b1 = first[1] & 0xff;
      if ((b0 == 0xfe && b1 == 0xff) || (b0 == 0xff && b1 == 0xfe)) return true;
    }
    for (byte b : first) if (b == 0) return true;
    return false;
  }
}
