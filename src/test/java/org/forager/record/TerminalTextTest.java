package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class TerminalTextTest {

  @Test
  void plainTextAndOtherScriptsAreKeptAsTheyAre() {
    String text = "https://example.org/caf\u00e9?q=\u65e5\u672c \ud83d\ude00 [ok] \\x41";
    assertSame(text, TerminalText.escape(text));
  }

  @Test
  void escapeSequencesNewlinesAndC1ControlsCannotReachTheTerminal() {
    assertEquals("\\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m", TerminalText.escape("\u001b]0;pwned\u0007\u001b[31mred\u001b[0m"));
    assertEquals("one\\x0aforged line\\x0d\\x09\\x00", TerminalText.escape("one\nforged line\r\t\u0000"));
    assertEquals("\\x7f\\x9b2J\\x85", TerminalText.escape("\u007f\u009b2J\u0085"));
  }

  @Test
  void bidiOverridesInvisibleCharactersAndLoneSurrogatesAreEscaped() {
    assertEquals("evil\\u202etxt.exe", TerminalText.escape("evil\u202etxt.exe"));
    assertEquals("a\\u200bb\\u2066c\\ufeff", TerminalText.escape("a\u200bb\u2066c\ufeff"));
    assertEquals("x\\ud800y\\udc00", TerminalText.escape("x\ud800y\udc00"));
  }

  @Test
  void longTextIsCutWithANoteOfHowMuchMoreThereWas() {
    assertEquals("abc...(3 more characters)", TerminalText.escape("abcdef", 3));
    assertEquals("\\x1bb...(1 more characters)", TerminalText.escape("\u001bbc", 2));
    // A surrogate pair is never cut in half.
    assertEquals("a...(2 more characters)", TerminalText.escape("a\ud83d\ude00", 2));
    assertEquals(TerminalText.MAX_CHARS + "...(1 more characters)".length(),
        TerminalText.escape("x".repeat(TerminalText.MAX_CHARS + 1)).length());
  }

  @Test
  void nullPrintsAsConcatenationWould() {
    assertEquals("null", TerminalText.escape(null));
  }
}
