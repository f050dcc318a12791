package org.forager.extract;

/** Decoded text as {@link Markup}: for encodings {@link ByteMarkup} cannot read, and srcdoc documents. */
final class StringMarkup extends Markup {

  private final String s;

  StringMarkup(String s) {
    super(0, s.length());
    this.s = s;
  }

  @Override
  int at(int i) {
    return s.charAt(i);
  }

  @Override
  int indexOf(int c, int from) {
    return s.indexOf(c, from);
  }

  @Override
  int indexOf(String ascii, int from, int to) {
    return s.indexOf(ascii, from, to); // a match that fits in [from, to), as Markup's
  }

  @Override
  int until(int from, int to, int classes) {
    int i = from;
    while (i < to && (CLASSES[Math.min(s.charAt(i), 0xFF)] & classes) == 0) i++;
    return i;
  }

  @Override
  String text(int from, int to) {
    return s.substring(from, to);
  }

  @Override
  void appendText(StringBuilder out, int from, int to) {
    out.append(s, from, to);
  }
}
