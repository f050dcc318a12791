package org.forager.extract;

/** Allocation-free matching in whitespace-separated token lists such as HTML {@code rel}. */
final class Tokens {

  private Tokens() {}

  /** Whether {@code list} holds {@code token} as a whole whitespace-separated token, ignoring ASCII case. */
  static boolean contains(String list, String token) {
    int n = list.length();
    int i = 0;
    while (i < n) {
      while (i < n && isSpace(list.charAt(i))) i++;
      int start = i;
      while (i < n && !isSpace(list.charAt(i))) i++;
      if (i - start == token.length() && list.regionMatches(true, start, token, 0, token.length())) {
        return true;
      }
    }
    return false;
  }

  /** HTML's ASCII whitespace, plus what HTTP allows around tokens. */
  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }
}
