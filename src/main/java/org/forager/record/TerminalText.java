package org.forager.record;

/**
 * Makes text that came from the web (URLs, server messages, robots.txt and sitemap lines) safe to
 * print on a terminal or into a text log: nothing in the result can move the cursor, retitle the
 * window, recolour what follows, start a new line or reorder the text around it.
 *
 * <p>Escaped: C0 controls (newline and tab too, so one string stays one line), DEL, C1 controls
 * (U+0080–U+009F: U+009B is a one-character CSI to many terminals), the Unicode bidirectional and
 * invisible format characters (U+061C, U+200B–U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF) and lone
 * surrogates. They become {@code \xNN} below U+0100, else a backslash, {@code u} and four hex digits,
 * as in Java source. Everything else, other scripts included, is kept. Stateless and thread-safe.
 */
public final class TerminalText {

  /** The most characters of one string printed; the rest is counted, not shown. */
  public static final int MAX_CHARS = 1_000;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private TerminalText() {}

  /** {@code text} escaped and cut at {@link #MAX_CHARS}; {@code "null"} for null, as string concatenation would. */
  public static String escape(String text) {
    return escape(text, MAX_CHARS);
  }

  /** {@code text} escaped; when longer than {@code maxChars}, cut there with a note of how much more there was. */
  public static String escape(String text, int maxChars) {
    if (text == null) return "null";
    int length = Math.min(text.length(), maxChars);
    StringBuilder sb = null;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      boolean unsafe = isUnsafe(text, i);
      if (unsafe && sb == null) sb = new StringBuilder(length + 16).append(text, 0, i);
      if (sb == null) continue;
      if (!unsafe) {
        sb.append(c);
      } else if (c < 0x100) {
        sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
      } else {
        sb.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
            .append(HEX[c & 0xf]);
      }
    }
    if (text.length() <= maxChars) return sb == null ? text : sb.toString();
    if (sb == null) sb = new StringBuilder(length + 32).append(text, 0, length);
    int kept = length;
    // A surrogate pair cut in half would print as a lone surrogate: drop its first half too.
    if (length > 0 && Character.isHighSurrogate(text.charAt(length - 1)) && sb.length() > 0
        && Character.isHighSurrogate(sb.charAt(sb.length() - 1))) {
      sb.setLength(sb.length() - 1);
      kept--;
    }
    return sb.append("...(").append(text.length() - kept).append(" more characters)").toString();
  }

  private static boolean isUnsafe(String text, int i) {
    char c = text.charAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
    if (Character.isHighSurrogate(c)) return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    if (Character.isLowSurrogate(c)) return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
    return c == 0x061c || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
  }
}
