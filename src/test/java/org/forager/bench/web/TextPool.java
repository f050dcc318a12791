package org.forager.bench.web;

/**
 * Pseudo-text the pages are assembled from, generated once per JVM from a fixed seed: words made of
 * syllables (a few with accented letters, so pages are real UTF-8) and paragraphs of sentences,
 * each paragraph cut in two at a sentence end so that a link can go in its middle. Immutable after
 * construction, so safe to share between threads.
 */
final class TextPool {

  static final int WORDS = 2048;
  static final int PARAGRAPHS = 256;

  private static final String[] SYLLABLES = {
      "ka", "lo", "mi", "ren", "tas", "vo", "qui", "der", "sol", "fen", "ar", "is", "ul", "ne", "ro",
      "ga", "pe", "tri", "mon", "sa", "bel", "cor", "dan", "el", "for", "gil", "hin", "jo", "lar",
      "mer", "nor", "ost", "pra", "sen", "tor", "un", "ves", "wil", "yar", "zen", "an", "to", "re"};
  private static final String[] ACCENTED = {"ré", "lé", "mö", "çu", "ña", "fè", "dü"};

  private static final TextPool INSTANCE = new TextPool();

  private final byte[][] words = new byte[WORDS][];
  private final byte[][] heads = new byte[PARAGRAPHS][];
  private final byte[][] tails = new byte[PARAGRAPHS][];

  private TextPool() {
    Mix mix = new Mix(20261121L);
    String[] text = new String[WORDS];
    for (int i = 0; i < WORDS; i++) {
      StringBuilder w = new StringBuilder();
      int syllables = 1 + mix.nextInt(3) + (mix.nextInt(8) == 0 ? 1 : 0);
      for (int s = 0; s < syllables; s++) {
        w.append(mix.nextInt(25) == 0 ? ACCENTED[mix.nextInt(ACCENTED.length)]
            : SYLLABLES[mix.nextInt(SYLLABLES.length)]);
      }
      text[i] = w.toString();
      words[i] = ByteSink.utf8(text[i]);
    }
    for (int p = 0; p < PARAGRAPHS; p++) {
      int target = 600 + mix.nextInt(700);
      StringBuilder head = new StringBuilder();
      StringBuilder tail = new StringBuilder();
      while (head.length() + tail.length() < target) {
        StringBuilder into = head.length() < target / 2 ? head : tail;
        sentence(mix, text, into);
      }
      heads[p] = ByteSink.utf8(head.toString());
      tails[p] = ByteSink.utf8(" " + tail.toString().strip());
    }
  }

  static TextPool get() {
    return INSTANCE;
  }

  byte[] word(int i) {
    return words[i];
  }

  byte[] head(int paragraph) {
    return heads[paragraph];
  }

  byte[] tail(int paragraph) {
    return tails[paragraph];
  }

  private static void sentence(Mix mix, String[] text, StringBuilder out) {
    int n = 6 + mix.nextInt(13);
    for (int i = 0; i < n; i++) {
      String w = text[mix.nextInt(WORDS)];
      if (i == 0) w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
      out.append(w);
      if (i < n - 1) out.append(mix.nextInt(9) == 0 ? ", " : " ");
    }
    out.append(". ");
  }
}
