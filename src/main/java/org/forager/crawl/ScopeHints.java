package org.forager.crawl;

/** Which setting would bring a URL out of scope into it, for the notes of a run's summary. */
final class ScopeHints {

  private ScopeHints() {}

  /** "; scope.mode: domains would include it", or similar; empty when nothing simple would. */
  static String toInclude(String from, String target) {
    return "";
  }
}
