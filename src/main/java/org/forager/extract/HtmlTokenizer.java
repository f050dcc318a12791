package org.forager.extract;

/**
 * The WHATWG HTML tokenizer (HTML 13.2.5) reduced to what link extraction reads: start and end tags
 * with their attributes, and whether text outside tags holds more than whitespace. Comments
 * ({@code -->}, {@code --!>}, {@code <!-->}), bogus comments, DOCTYPEs, CDATA sections (in foreign
 * content only), RCDATA, RAWTEXT, PLAINTEXT and script data with its escaped and double-escaped states
 * are skipped as the standard skips them; a tag cut off by the end of the input is dropped. Which state
 * follows a start tag is for the {@link Handler} (the tree builder) to say. The input is {@link Markup}:
 * the page's bytes or its decoded text, read alike, since every decision here is made on ASCII
 * characters; CR is read as whitespace, which is what it becomes (LF) for every rule used here.
 *
 * <p>One instance per document; not thread-safe.
 */
final class HtmlTokenizer {

  /** What the tree builder does with the tokens. */
  interface Handler {

    /** A start tag; returns the state its content is read in ({@link #DATA} for most). */
    int startTag(Tag tag);

    void endTag(String name);

    /** Text with something other than whitespace, outside tags (only asked for while {@link #wantsText}). */
    void text();

    boolean wantsText();

    /** Whether {@code <![CDATA[} starts a CDATA section: the adjusted current node is not HTML. */
    boolean cdataAllowed();

    /** Whether the rest of the input is of no interest. */
    boolean done();
  }

  static final int DATA = 0;
  static final int RCDATA = 1;
  static final int RAWTEXT = 2;
  static final int SCRIPT = 3;
  static final int PLAINTEXT = 4;

  private final Markup s;
  private final int n;
  private final Handler handler;
  private final Tag tag;
  private int pos;
  // Where a search for a comment's end found none: no later comment searches there again.
  private int noDashesFrom = Integer.MAX_VALUE;
  private int noBangFrom = Integer.MAX_VALUE;

  HtmlTokenizer(Markup source, Handler handler) {
    this.s = source;
    this.n = source.end;
    this.handler = handler;
    this.tag = new Tag(source);
    this.pos = source.start;
  }

  void run() {
    while (pos < n && !handler.done()) {
      int lt = s.indexOf('<', pos);
      int textEnd = lt < 0 ? n : lt;
      if (handler.wantsText() && !isWhitespace(pos, textEnd)) handler.text();
      if (lt < 0) return;
      pos = lt;
      tagOpen();
    }
  }

  /** At a {@code <} in the data state. */
  private void tagOpen() {
    int i = pos + 1;
    if (i >= n) {
      text(n);
      return;
    }
    int c = s.at(i);
    if (c == '!') {
      markupDeclaration(i + 1);
    } else if (c == '/') {
      endTagOpen(i + 1);
    } else if (isAsciiLetter(c)) {
      tag(i, false);
    } else if (c == '?') {
      pos = after('>', i);
    } else {
      text(i);
    }
  }

  /** A lone {@code <} or {@code </}: text up to {@code next}. */
  private void text(int next) {
    if (handler.wantsText()) handler.text();
    pos = next;
  }

  private void markupDeclaration(int i) {
    if (s.startsWith("--", i)) {
      comment(i + 2);
    } else if (s.startsWithIgnoreCase("DOCTYPE", i)) {
      pos = after('>', i);
    } else if (s.startsWith("[CDATA[", i) && handler.cdataAllowed()) {
      int end = s.indexOf("]]>", i + 7, n);
      pos = end < 0 ? n : end + 3;
    } else {
      pos = after('>', i); // bogus comment
    }
  }

  /**
   * A comment whose text starts at {@code i}. It ends at the first {@code -->} (which may share the
   * dashes of {@code <!--}: {@code <!-->} and {@code <!--->} are whole comments) or {@code --!>}.
   */
  private void comment(int i) {
    int dashes = i - 2 >= noDashesFrom ? -1 : s.indexOf("-->", i - 2, n);
    if (dashes < 0) noDashesFrom = Math.min(noDashesFrom, i - 2);
    // Searched only up to the "-->", and never twice past the last "--!>": linear on pages of many comments.
    int bang = i >= noBangFrom ? -1 : s.indexOf("--!>", i, dashes < 0 ? n : dashes + 3);
    if (bang < 0 && dashes < 0) noBangFrom = Math.min(noBangFrom, i);
    if (bang >= 0) pos = bang + 4;
    else pos = dashes >= 0 ? dashes + 3 : n;
  }

  private void endTagOpen(int i) {
    if (i >= n) {
      text(n);
    } else if (isAsciiLetter(s.at(i))) {
      tag(i, true);
    } else if (s.at(i) == '>') {
      pos = i + 1;
    } else {
      pos = after('>', i); // bogus comment
    }
  }

  /** A tag whose name starts at {@code i}; emitted when complete, dropped when the input ends first. */
  private void tag(int i, boolean endTag) {
    int nameStart = i;
    i = s.until(i, n, Markup.SPACE | Markup.SOLIDUS | Markup.GREATER_THAN);
    if (i >= n) {
      pos = n;
      return;
    }
    tag.reset(s.tagName(nameStart, i));
    while (true) {
      i = s.until(i, n, Markup.NON_SPACE); // before attribute name
      if (i >= n) break;
      int c = s.at(i);
      if (c == '/') { // self-closing start tag state, or a stray '/' between attributes
        i++;
        if (i < n && s.at(i) == '>') {
          tag.selfClosing();
          emit(i + 1, endTag);
          return;
        }
        continue;
      }
      if (c == '>') {
        emit(i + 1, endTag);
        return;
      }
      int attributeStart = i++; // the first character may be '=', as a name
      i = s.until(i, n, Markup.SPACE | Markup.SOLIDUS | Markup.GREATER_THAN | Markup.EQUALS);
      int attributeEnd = i;
      i = s.until(i, n, Markup.NON_SPACE); // after attribute name
      if (i >= n) break;
      if (s.at(i) != '=') {
        tag.add(attributeStart, attributeEnd, -1, -1);
        continue;
      }
      i++;
      i = s.until(i, n, Markup.NON_SPACE); // before attribute value
      if (i >= n) break;
      c = s.at(i);
      if (c == '"' || c == '\'') {
        int close = s.indexOf(c, i + 1);
        if (close < 0) break;
        tag.add(attributeStart, attributeEnd, i + 1, close);
        i = close + 1; // whatever follows is read as before an attribute name
      } else if (c == '>') {
        tag.add(attributeStart, attributeEnd, i, i);
      } else {
        int valueStart = i;
        i = s.until(i, n, Markup.SPACE | Markup.GREATER_THAN);
        if (i >= n) break;
        tag.add(attributeStart, attributeEnd, valueStart, i);
      }
    }
    pos = n; // the input ended inside the tag: it is dropped
  }

  private void emit(int next, boolean endTag) {
    pos = next;
    if (endTag) {
      handler.endTag(tag.name());
      return;
    }
    String name = tag.name();
    switch (handler.startTag(tag)) {
      case RCDATA, RAWTEXT -> rawText(name);
      case SCRIPT -> scriptData();
      case PLAINTEXT -> pos = n;
      default -> {}
    }
  }

  /** RCDATA or RAWTEXT: the content ends at the element's own end tag. */
  private void rawText(String name) {
    for (int close = s.indexOf("</", pos, n); close >= 0; close = s.indexOf("</", close + 2, n)) {
      if (isEndTag(close + 2, name)) {
        tag(close + 2, true);
        return;
      }
    }
    pos = n;
  }

  private static final int SCRIPT_DATA = 0;
  private static final int ESCAPED = 1;
  private static final int ESCAPED_DASH = 2;
  private static final int ESCAPED_DASH_DASH = 3;
  private static final int DOUBLE_ESCAPED = 4;
  private static final int DOUBLE_ESCAPED_DASH = 5;
  private static final int DOUBLE_ESCAPED_DASH_DASH = 6;

  /**
   * Script data (HTML 13.2.5.4, 13.2.5.15–13.2.5.31): the content ends at {@code </script}, except
   * inside a {@code <!--} where a {@code <script>} starts a double-escaped section that only its
   * {@code </script>} (or {@code -->}) ends.
   */
  private void scriptData() {
    int state = SCRIPT_DATA;
    int i = pos;
    while (i < n) {
      if (state == SCRIPT_DATA) {
        i = s.indexOf('<', i);
        if (i < 0) break;
        if (i + 1 < n && s.at(i + 1) == '/' && isEndTag(i + 2, "script")) {
          tag(i + 2, true);
          return;
        }
        if (s.startsWith("<!--", i)) {
          state = ESCAPED_DASH_DASH;
          i += 4;
        } else {
          i++;
        }
        continue;
      }
      int c = s.at(i);
      boolean doubly = state >= DOUBLE_ESCAPED;
      if (c == '-') {
        state = state == ESCAPED || state == DOUBLE_ESCAPED ? state + 1 : doubly ? DOUBLE_ESCAPED_DASH_DASH : ESCAPED_DASH_DASH;
        i++;
      } else if (c == '>' && (state == ESCAPED_DASH_DASH || state == DOUBLE_ESCAPED_DASH_DASH)) {
        state = SCRIPT_DATA;
        i++;
      } else if (c == '<' && !doubly) {
        if (i + 1 < n && s.at(i + 1) == '/' && isEndTag(i + 2, "script")) {
          tag(i + 2, true);
          return;
        }
        state = ESCAPED;
        int end = letters(i + 1);
        if (end > i + 1 && end < n && isTagNameEnd(s.at(end)) && isScript(i + 1, end)) {
          state = DOUBLE_ESCAPED;
          end++;
        }
        i = end > i + 1 ? end : i + 1;
      } else if (c == '<') {
        state = DOUBLE_ESCAPED;
        i++;
        if (i < n && s.at(i) == '/') {
          int end = letters(i + 1);
          if (end < n && isTagNameEnd(s.at(end)) && isScript(i + 1, end)) {
            state = ESCAPED;
            end++;
          }
          i = end;
        }
      } else {
        state = doubly ? DOUBLE_ESCAPED : ESCAPED;
        i++;
      }
    }
    pos = n;
  }

  /** Whether an end tag named {@code name} (lower case) starts at {@code i}, just after {@code </}. */
  private boolean isEndTag(int i, String name) {
    int end = i + name.length();
    if (end >= n) return false; // the name alone, cut off by the end, is no tag
    for (int k = 0; k < name.length(); k++) {
      int c = s.at(i + k);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c != name.charAt(k)) return false;
    }
    return isTagNameEnd(s.at(end));
  }

  private boolean isScript(int start, int end) {
    if (end - start != 6) return false;
    for (int k = 0; k < 6; k++) {
      int c = s.at(start + k);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c != "script".charAt(k)) return false;
    }
    return true;
  }

  private int letters(int i) {
    while (i < n && isAsciiLetter(s.at(i))) i++;
    return i;
  }

  private static boolean isTagNameEnd(int c) {
    return isWhitespace(c) || c == '/' || c == '>';
  }

  private int after(int c, int from) {
    int at = s.indexOf(c, from);
    return at < 0 ? n : at + 1;
  }

  private boolean isWhitespace(int from, int to) {
    return s.until(from, to, Markup.NON_SPACE) == to;
  }

  private static boolean isWhitespace(int c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\f' || c == '\r';
  }

  private static boolean isAsciiLetter(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
