package org.forager.extract;

import java.util.List;
import java.util.Optional;

/**
 * Finds a link by relation type in HTTP {@code Link} header values (RFC 8288 section 3):
 * {@code <target>; rel="a b"; other=x, <target2>; rel=c}. Several links per value, quoted or bare
 * parameter values, several relation types per {@code rel}, compared case-insensitively (section
 * 2.1.1); only the first {@code rel} parameter of a link counts (section 3.3). Malformed links are
 * skipped. Stateless and thread-safe.
 */
final class LinkHeader {

  private LinkHeader() {}

  /** The target, as written, of the first link with relation type {@code relType}. */
  static Optional<String> firstTarget(List<String> headerValues, String relType) {
    for (String value : headerValues) {
      Optional<String> target = firstTarget(value, relType);
      if (target.isPresent()) return target;
    }
    return Optional.empty();
  }

  private static Optional<String> firstTarget(String s, String relType) {
    int n = s.length();
    int i = 0;
    while (i < n) {
      while (i < n && (s.charAt(i) == ',' || Tokens.isSpace(s.charAt(i)))) i++;
      if (i >= n) break;
      if (s.charAt(i) != '<') {
        i = skipPast(s, i, ',');
        continue;
      }
      int close = s.indexOf('>', i + 1);
      if (close < 0) break;
      String target = s.substring(i + 1, close).strip();
      i = close + 1;
      String rel = null;
      // Parameters up to the comma that ends this link.
      while (i < n) {
        i = skipSpace(s, i);
        if (i >= n) break;
        char c = s.charAt(i);
        if (c == ',') {
          i++;
          break;
        }
        if (c != ';') {
          i = skipToDelimiter(s, i);
          continue;
        }
        i = skipSpace(s, i + 1);
        int nameStart = i;
        while (i < n && "=;,".indexOf(s.charAt(i)) < 0 && !Tokens.isSpace(s.charAt(i))) i++;
        boolean isRel = i - nameStart == 3 && s.regionMatches(true, nameStart, "rel", 0, 3);
        i = skipSpace(s, i);
        String paramValue = "";
        if (i < n && s.charAt(i) == '=') {
          i = skipSpace(s, i + 1);
          if (i < n && s.charAt(i) == '"') {
            StringBuilder quoted = new StringBuilder();
            i++;
            while (i < n && s.charAt(i) != '"') {
              if (s.charAt(i) == '\\' && i + 1 < n) i++;
              quoted.append(s.charAt(i++));
            }
            i++;
            paramValue = quoted.toString();
          } else {
            int valueStart = i;
            while (i < n && s.charAt(i) != ';' && s.charAt(i) != ',' && !Tokens.isSpace(s.charAt(i))) i++;
            paramValue = s.substring(valueStart, i);
          }
        }
        if (isRel && rel == null) rel = paramValue;
      }
      if (rel != null && !target.isEmpty() && Tokens.contains(rel, relType)) return Optional.of(target);
    }
    return Optional.empty();
  }

  /** Past the next {@code stop} outside a quoted string, or the end. */
  private static int skipPast(String s, int i, char stop) {
    boolean quoted = false;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') quoted = !quoted;
      else if (c == stop && !quoted) return i + 1;
    }
    return i;
  }

  /** At the next {@code ;} or {@code ,} outside a quoted string, or the end. */
  private static int skipToDelimiter(String s, int i) {
    boolean quoted = false;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') quoted = !quoted;
      else if ((c == ';' || c == ',') && !quoted) return i;
    }
    return i;
  }

  private static int skipSpace(String s, int i) {
    while (i < s.length() && Tokens.isSpace(s.charAt(i))) i++;
    return i;
  }
}
