package org.forager.crawl;

import java.util.function.Consumer;

/**
 * The {@link Error}s a crawl survives as the failure of the one URL (or origin) being processed when
 * it was thrown, and how each is told (docs/robustness.md, "Internal errors"). A bug that one page
 * sets off (a parser's recursion overflowing the stack, an {@link AssertionError}, a library's own
 * {@code Error}) must cost that page, not the run, and must not be met again at every resume.
 *
 * <p>Contained: a {@link StackOverflowError} (the stack has unwound to the step that catches it,
 * where there is room again; what it cut short is the step's to account for), and every {@code Error}
 * that is not a {@link VirtualMachineError} (out of memory, {@link InternalError}: the JVM itself is no
 * longer to be trusted), a {@link LinkageError} (a class missing or failing to load: a broken
 * installation, which every page would meet) or a {@link java.io.IOError} (an output that cannot be
 * written). Those end the run as before ({@code Crawler}'s fatal error). Thread-safe.
 */
final class InternalErrors {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InternalErrors.class);
  /** The most of an error's text a crawl log reason holds (an assertion's message may quote a page). */
  static final int MAX_REASON_CHARS = 300;
  /** The most of a URL the terminal's line shows. */
  private static final int MAX_SHOWN_CHARS = 200;

  private final Consumer<Error> counted;

  /** @param counted told of each error contained: the run's count and budget of unexpected errors */
  InternalErrors(Consumer<Error> counted) {
    this.counted = counted;
  }

  /** Whether the crawl goes on after {@code e}, as the failure of what was being processed. */
  static boolean containable(Error e) {
    if (e instanceof StackOverflowError) return true;
    return !(e instanceof VirtualMachineError || e instanceof LinkageError || e instanceof java.io.IOError);
  }

  /** {@code e}, rethrown when the crawl cannot go on after it ({@link #containable}); else returned. */
  static Error containedOrThrow(Error e) {
    if (!containable(e)) throw e;
    return e;
  }

  /** The crawl log's reason for a URL the crawler failed on: {@code internal error: java.lang.StackOverflowError}. */
  static String reason(Error e) {
    return cut("internal error: " + e);
  }

  /**
   * The crawl log's reason for a URL refused because a gate failed on it: {@code internal error in the
   * gates: java.lang.StackOverflowError}.
   */
  static String gateReason(Error e) {
    return cut("internal error in the gates: " + e);
  }

  private static String cut(String text) {
    return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
  }

  /**
   * Tells of an error contained while {@code what} (a URL, or an origin) was processed: one line on
   * the terminal saying {@code consequence}, the stack trace in the library log, and one count
   * against the run's budget of unexpected errors (a burst of them stops the crawl).
   */
  void contained(String what, String consequence, Error e) {
    // A URL of thousands of characters must not push the consequence off the line (the terminal's cut).
    String shown = what.length() <= MAX_SHOWN_CHARS ? what : what.substring(0, MAX_SHOWN_CHARS) + "...";
    Notice.println("forager: internal error on " + shown + ": " + e + "; " + consequence
        + " (stack trace in logs/library.log)");
    LOG.error("internal error on {}; {}", what, consequence, e);
    counted.accept(e);
  }
}
