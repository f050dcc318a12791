package org.forager.extract;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Finds a {@code <meta charset>} or {@code <meta http-equiv=Content-Type content="…charset=…">}
 * declaration in the first bytes of a page without parsing it, following WHATWG HTML 13.2.3.2
 * "prescan a byte stream to determine its encoding": comments and other tags are skipped, a
 * label unknown to the Encoding Standard (or an encoding Java lacks) is passed over, a UTF-16
 * declaration means UTF-8 (the bytes were readable as ASCII, so they are not UTF-16), and
 * {@code x-user-defined} means windows-1252. One instance per scan; not thread-safe, but
 * {@link #scan} is.
 */
final class MetaCharsetPrescan {

  /**
   * How far to look. The standard requires the declaration in the first 1024 bytes; real pages
   * often put it later, behind long comments or scripts, so we look a little further.
   */
  static final int LIMIT = 4096;

  private final byte[] b;
  private final int end;
  private int pos;

  private MetaCharsetPrescan(byte[] b) {
    this.b = b;
    this.end = Math.min(b.length, LIMIT);
  }

  static Optional<WebEncoding> scan(byte[] body) {
    return Optional.ofNullable(new MetaCharsetPrescan(body).run());
  }

  private WebEncoding run() {
    while (pos < end) {
      if (startsWith("<!--")) {
        // The comment ends at the first "-->", which may share its dashes with "<!--".
        int close = indexOf("-->", pos + 2);
        if (close < 0) return null;
        pos = close + 3;
        continue;
      }
      if (startsWithIgnoreCase("<meta") && pos + 5 < end && (isSpace(b[pos + 5]) || b[pos + 5] == '/')) {
        pos += 5;
        WebEncoding encoding = meta();
        if (encoding != null) return encoding;
      } else if (b[pos] == '<' && pos + 1 < end && (isLetter(b[pos + 1])
          || (b[pos + 1] == '/' && pos + 2 < end && isLetter(b[pos + 2])))) {
        while (pos < end && !isSpace(b[pos]) && b[pos] != '>') pos++;
        while (attribute() != null) {
          // Skipping the tag's attributes, so a '>' inside a quoted value does not end it.
        }
      } else if (startsWith("<!") || startsWith("</") || startsWith("<?")) {
        while (pos < end && b[pos] != '>') pos++;
      }
      pos++;
    }
    return null;
  }

  /** The attributes of a meta tag; the charset they declare, or null. */
  private WebEncoding meta() {
    Set<String> seen = new HashSet<>();
    boolean gotPragma = false;
    Boolean needPragma = null;
    String charset = null;
    String[] attr;
    while ((attr = attribute()) != null) {
      if (!seen.add(attr[0])) continue;
      switch (attr[0]) {
        case "http-equiv" -> gotPragma |= attr[1].equals("content-type");
        case "content" -> {
          if (charset == null) {
            charset = fromContent(attr[1]);
            if (charset != null) needPragma = true;
          }
        }
        case "charset" -> {
          charset = attr[1];
          needPragma = false;
        }
        default -> {}
      }
    }
    if (needPragma == null || (needPragma && !gotPragma) || charset == null) return null;
    if (charset.strip().equals("x-user-defined")) return Charsets.WINDOWS_1252;
    WebEncoding found = EncodingLabels.lookup(charset).orElse(null);
    if (found != null && found.name().startsWith("UTF-16")) return Charsets.UTF_8;
    return found;
  }

  /** WHATWG "get an attribute": {name, value} lower-cased, or null at '>' or the end. */
  private String[] attribute() {
    while (pos < end && (isSpace(b[pos]) || b[pos] == '/')) pos++;
    if (pos >= end || b[pos] == '>') return null;
    StringBuilder name = new StringBuilder();
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= end) return null;
      byte c = b[pos];
      if (c == '=' && name.length() > 0) {
        pos++;
        break;
      }
      if (isSpace(c)) {
        while (pos < end && isSpace(b[pos])) pos++;
        if (pos >= end || b[pos] != '=') return new String[] {name.toString(), ""};
        pos++;
        break;
      }
      if (c == '/' || c == '>') return new String[] {name.toString(), ""};
      name.append(lower(c));
      pos++;
    }
    while (pos < end && isSpace(b[pos])) pos++;
    if (pos >= end) return null;
    byte c = b[pos];
    if (c == '"' || c == '\'') {
      pos++;
      while (pos < end && b[pos] != c) value.append(lower(b[pos++]));
      if (pos >= end) return null;
      pos++;
      return new String[] {name.toString(), value.toString()};
    }
    if (c == '>') return new String[] {name.toString(), ""};
    while (pos < end && !isSpace(b[pos]) && b[pos] != '>') value.append(lower(b[pos++]));
    return pos >= end ? null : new String[] {name.toString(), value.toString()};
  }

  /** WHATWG "extracting a character encoding from a meta element" on a lower-cased content value. */
  static String fromContent(String content) {
    int i = 0;
    int n = content.length();
    while (true) {
      i = content.indexOf("charset", i);
      if (i < 0) return null;
      i += 7;
      while (i < n && isSpace((byte) content.charAt(i))) i++;
      if (i < n && content.charAt(i) == '=') break;
    }
    i++;
    while (i < n && isSpace((byte) content.charAt(i))) i++;
    if (i >= n) return null;
    char c = content.charAt(i);
    if (c == '"' || c == '\'') {
      int close = content.indexOf(c, i + 1);
      return close < 0 ? null : content.substring(i + 1, close);
    }
    int start = i;
    while (i < n && !isSpace((byte) content.charAt(i)) && content.charAt(i) != ';') i++;
    return i == start ? null : content.substring(start, i);
  }

  private boolean startsWith(String s) {
    if (pos + s.length() > end) return false;
    for (int i = 0; i < s.length(); i++) {
      if (b[pos + i] != s.charAt(i)) return false;
    }
    return true;
  }

  private boolean startsWithIgnoreCase(String lowerCase) {
    if (pos + lowerCase.length() > end) return false;
    for (int i = 0; i < lowerCase.length(); i++) {
      if (lower(b[pos + i]) != lowerCase.charAt(i)) return false;
    }
    return true;
  }

  private int indexOf(String s, int from) {
    outer:
    for (int i = from; i + s.length() <= end; i++) {
      for (int j = 0; j < s.length(); j++) {
        if (b[i + j] != s.charAt(j)) continue outer;
      }
      return i;
    }
    return -1;
  }

  private static char lower(byte c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : (char) (c & 0xFF);
  }

  private static boolean isLetter(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }
}
