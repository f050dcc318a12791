package org.forager.robots;

/**
 * A {@code $} inside a rule's path, written as {@code %24} so that it matches itself. RFC 9309 and
 * Google read {@code $} as the end of the path only when it ends the rule ({@code Disallow: /*.php$});
 * elsewhere it is a character of the path. crawler-commons reads a rule with one before its end as
 * matching nothing, so {@code Disallow: /a$b} let {@code /a$b} be fetched; the rules match {@code %24}
 * against a path's {@code $} (RFC 9309 section 2.2.2).
 *
 * <p>Only a {@code $} followed at once by a visible ASCII char of a path is escaped: one before
 * anything else (blanks, controls, {@code #}, {@code <} of HTML the parser strips, a byte of a line
 * separator such as U+2028 or U+0085, a UTF-16 body's zero byte) may end the rule for the parser and
 * stays the anchor it is. So no rule matches less than the parser made it match. Stateless.
 */
final class LiteralDollars {

  private LiteralDollars() {}

  /** The body with each {@code $} inside a path escaped; the same array when there is none. */
  static byte[] escaped(byte[] body) {
    int count = 0;
    for (int i = 0; i + 1 < body.length; i++) {
      if (body[i] == '$' && insidePath(body[i + 1])) count++;
    }
    if (count == 0) return body;
    byte[] out = new byte[body.length + 2 * count];
    int o = 0;
    for (int i = 0; i < body.length; i++) {
      if (body[i] == '$' && i + 1 < body.length && insidePath(body[i + 1])) {
        out[o++] = '%';
        out[o++] = '2';
        out[o++] = '4';
      } else {
        out[o++] = body[i];
      }
    }
    return out;
  }

  /** Whether a byte after a {@code $} is more of the path: visible ASCII, not a comment or a tag. */
  private static boolean insidePath(byte next) {
    return next > 0x20 && next < 0x7f && next != '#' && next != '<';
  }
}
