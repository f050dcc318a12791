package org.forager.fuzz;

/** Shows fuzz inputs in failure messages: Java-escaped, cut to a readable length. */
final class Show {

  private static final int MAX = 400;

  private Show() {}

  static String text(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length() && i < MAX; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c >= 0x20 && c < 0x7F) out.append(c);
          else out.append(String.format("\\u%04x", (int) c));
        }
      }
    }
    out.append('"');
    if (s.length() > MAX) out.append("... (").append(s.length()).append(" chars)");
    return out.toString();
  }
}
