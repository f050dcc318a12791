package org.forager.crawl;

import org.forager.record.TerminalText;

/**
 * The crawl loop's lines for the operator's terminal (standard error). Every line is escaped whole:
 * URLs, origins, server messages and exception texts are chosen by the sites crawled, and a control
 * character must never reach the terminal. Thread-safe.
 */
final class Notice {

  private Notice() {}

  static void printf(String format, Object... args) {
    println(String.format(format, args).stripTrailing());
  }

  static void println(String line) {
    System.err.println(TerminalText.escape(line));
  }
}
