package org.forager.sitemap;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Looks at every byte of an XML sitemap before the parser does, and stops the stream (a {@link Stop}
 * saying why) before handing on
 *
 * <ul>
 *   <li>a {@code <!DOCTYPE} or {@code <!ENTITY} anywhere, in any case: no parser is ever handed one,
 *       so no external entity is resolved (XXE) and no entity is expanded (billion laughs), whatever
 *       the parser would do with them; the sitemap schema needs neither;
 *   <li>a tag, comment, CDATA section, processing instruction or character reference longer than
 *       {@link #MAX_MARKUP} bytes: the JDK's StAX parser hands text on in pieces but holds each of
 *       these whole, so a 50 MiB comment would cost hundreds of MiB of char arrays.
 * </ul>
 *
 * <p>It reads markup as a small lexer does (quotes in tags, {@code -->}, {@code ]]>}, {@code ?>});
 * where it and the parser disagree the document is malformed and the parser fails on it anyway. Not
 * thread-safe.
 */
final class XmlGuard extends FilterInputStream {

  /** The longest tag, comment, CDATA section, processing instruction or reference handed on. */
  static final int MAX_MARKUP = 64 * 1024;

  private static final byte[] DOCTYPE = {'<', '!', 'd', 'o', 'c', 't', 'y', 'p', 'e'};
  private static final byte[] ENTITY = {'<', '!', 'e', 'n', 't', 'i', 't', 'y'};

  private enum State { TEXT, REF, OPEN, BANG, TAG, COMMENT_OPEN, COMMENT, CDATA, PI }

  private State state = State.TEXT;
  private int markup; // bytes of the current markup so far
  private int quote; // the quote open in a tag, or 0
  private int closers; // '-' in a comment, ']' in CDATA, '?' in a PI just before this byte
  private int doctype; // bytes of DOCTYPE matched so far
  private int entity;
  private String refusal; // set once: every later read throws

  XmlGuard(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (refusal != null) throw new Stop(refusal);
    int n = in.read(b, off, len);
    for (int i = off; i < off + n; i++) {
      look(b[i]);
      if (refusal != null) throw new Stop(refusal); // before the parser sees any of this read
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) return 0;
    return Math.max(0, read(new byte[(int) Math.min(n, 8192)])); // every byte is looked at, none skipped
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void look(byte b) {
    int lower = b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
    doctype = match(DOCTYPE, doctype, lower);
    entity = match(ENTITY, entity, lower);
    if (doctype == DOCTYPE.length || entity == ENTITY.length) {
      refusal = "refused: a DOCTYPE or entity declaration (external entities and entity expansion are"
          + " never processed)";
      return;
    }
    if (state == State.TEXT) {
      if (b == '<' || b == '&') {
        state = b == '<' ? State.OPEN : State.REF;
        markup = 1;
      }
      return;
    }
    if (++markup > MAX_MARKUP) {
      refusal = "a tag, comment, CDATA section or reference longer than " + MAX_MARKUP + " bytes";
      return;
    }
    state = next(state, b);
  }

  private State next(State current, byte b) {
    switch (current) {
      case REF -> { // "&#000…065;": the parser holds a reference whole too
        return b == ';' ? State.TEXT : b == '<' ? State.OPEN : State.REF;
      }
      case OPEN -> {
        closers = 0;
        quote = 0;
        return b == '!' ? State.BANG : b == '?' ? State.PI : b == '>' ? State.TEXT : State.TAG;
      }
      case BANG -> {
        return b == '-' ? State.COMMENT_OPEN : b == '[' ? State.CDATA : b == '>' ? State.TEXT : State.TAG;
      }
      case COMMENT_OPEN -> { // the second '-' of "<!--" is no part of a closing "-->"
        return b == '-' ? State.COMMENT : State.TAG;
      }
      case TAG -> {
        if (quote != 0) {
          if (b == quote) quote = 0;
        } else if (b == '"' || b == '\'') {
          quote = b;
        } else if (b == '>') {
          return State.TEXT;
        }
        return State.TAG;
      }
      case COMMENT -> {
        return ends(b, '-', 2) ? State.TEXT : State.COMMENT;
      }
      case CDATA -> {
        return ends(b, ']', 2) ? State.TEXT : State.CDATA;
      }
      case PI -> {
        return ends(b, '?', 1) ? State.TEXT : State.PI;
      }
      default -> throw new IllegalStateException(current.name());
    }
  }

  /** Whether {@code b} is the '&gt;' that follows {@code count} or more {@code closer} bytes. */
  private boolean ends(byte b, char closer, int count) {
    if (b == '>' && closers >= count) return true;
    closers = b == closer ? closers + 1 : 0;
    return false;
  }

  /** The next match state of {@code pattern} after {@code b}: '&lt;' starts a match, none repeats it. */
  private static int match(byte[] pattern, int matched, int b) {
    if (b == pattern[matched]) return matched + 1;
    return b == '<' ? 1 : 0;
  }
}
