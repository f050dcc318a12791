package org.forager.robots;

import java.nio.charset.StandardCharsets;

/**
 * A {@code $} inside a rule's path, written as {@code %24} so that it matches itself. RFC 9309 and
 * Google read {@code $} as the end of the path only when it ends the rule ({@code Disallow: /*.php$});
 * elsewhere it is a character of the path. crawler-commons reads a rule with one before its end as
 * matching nothing, so {@code Disallow: /a$b} let {@code /a$b} be fetched; the rules match {@code %24}
 * against a path's {@code $} (RFC 9309 section 2.2.2). The rule's last {@code $}, before blanks or a
 * {@code #} comment, is left as the anchor it is. Stateless.
 */
final class LiteralDollars {

  private LiteralDollars() {}

  /** The body with each {@code $} before the end of its line's value escaped; the same array when there is none. */
  static byte[] escaped(byte[] body) {
    // ISO-8859-1 maps bytes to chars one to one, so every other byte comes back unchanged.
    String text = new String(body, StandardCharsets.ISO_8859_1);
    if (text.indexOf('$') < 0) return body;
    StringBuilder out = new StringBuilder(text.length() + 16);
    int start = 0;
    while (start < text.length()) {
      int end = start;
      while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') end++;
      int valueEnd = start;
      while (valueEnd < end && text.charAt(valueEnd) != '#') valueEnd++; // within the line: linear in the body
      while (valueEnd > start && (text.charAt(valueEnd - 1) == ' ' || text.charAt(valueEnd - 1) == '\t')) valueEnd--;
      for (int i = start; i < end; i++) {
        char c = text.charAt(i);
        if (c == '$' && i < valueEnd - 1) out.append("%24");
        else out.append(c);
      }
      if (end < text.length()) out.append(text.charAt(end));
      start = end + 1;
    }
    return out.toString().getBytes(StandardCharsets.ISO_8859_1);
  }
}
