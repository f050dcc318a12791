package org.forager.crawl;

import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * What a crawl survives as the failure of the one URL (or origin) being processed when it was thrown,
 * and how each is told (docs/robustness.md, "Internal errors"): the one place that decides it. A bug
 * that one page sets off (a parser's recursion overflowing the stack, a {@link NullPointerException}
 * or an {@link IndexOutOfBoundsException} in a parser or a library, an {@link AssertionError}) must
 * cost that page, not its origin's run or the crawl's, and must not be met again at every resume.
 *
 * <p>Contained ({@link #containable}): a {@link RuntimeException}, unless it says that the crawl itself
 * cannot go on: an output failure ({@link #isOutputFailure}: disk full, store broken, the crawl
 * database out of reach), a lease another process took ({@link org.forager.store.LeaseLostException},
 * the fleet's coordinator drops the origin), an interruption, or any exception once the crawler's
 * outputs are being closed under the run (a stopped run's last turns, a minute after the stop). A
 * {@link StackOverflowError} (the stack has unwound to the step that catches it, where there is room
 * again; what it cut short is the step's to account for), and every {@code Error} that is not a {@link
 * VirtualMachineError} (out of memory, {@link InternalError}: the JVM itself is no longer to be
 * trusted), a {@link LinkageError} (a class missing or failing to load: a broken installation, which
 * every page would meet) or a {@link java.io.IOError} (an output that cannot be written). What is not
 * contained is thrown on, as before: an output failure stops the crawl, an {@code Error} ends the run
 * ({@code Crawler}'s fatal error). Thread-safe.
 */
final class InternalErrors {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InternalErrors.class);
  /** The most of an error's text a crawl log reason holds (an assertion's message may quote a page). */
  static final int MAX_REASON_CHARS = 300;
  /** The most of a URL the terminal's line shows. */
  private static final int MAX_SHOWN_CHARS = 200;
  /** The most causes looked through (a chain may loop). */
  private static final int MAX_CAUSES = 32;

  private final BiConsumer<String, Throwable> counted;
  private final BooleanSupplier closing;

  /**
   * @param counted told of each error contained, with the origin it was on: the run's count and budget of
   *     unexpected errors
   * @param closing whether the crawler's outputs (fetcher, log, WARC files, store) are being closed
   */
  InternalErrors(BiConsumer<String, Throwable> counted, BooleanSupplier closing) {
    this.counted = counted;
    this.closing = closing;
  }

  /**
   * Whether the crawl goes on after {@code e}, thrown by a step, as the failure of what the step was
   * processing (a URL, or an origin); if not, the step throws it on.
   */
  boolean containable(Throwable e) {
    return switch (e) {
      case Error error -> survivable(error);
      // Closed under a turn, an output throws what it throws when closed (IllegalStateException): the
      // close's, not the URL's.
      case RuntimeException r -> !isOutputFailure(r) && !stopsTheTurn(r) && !closing.getAsBoolean();
      default -> false; // a checked exception thrown unchecked: nothing is known of it
    };
  }

  /** Whether the JVM can be trusted to go on after {@code e}: see the class comment. */
  static boolean survivable(Error e) {
    if (e instanceof StackOverflowError) return true;
    return !(e instanceof VirtualMachineError || e instanceof LinkageError || e instanceof java.io.IOError);
  }

  /**
   * Whether {@code e} says the crawl cannot record what it fetches, so that it must stop at once: an
   * {@link java.io.IOException}, an {@link java.io.UncheckedIOException} or a {@link
   * org.forager.store.StoreException} (its {@link org.forager.store.StoreUnavailableException} too:
   * the fleet waits for the database) anywhere among its causes.
   */
  static boolean isOutputFailure(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < MAX_CAUSES; t = t.getCause()) {
      if (t instanceof java.io.UncheckedIOException || t instanceof java.io.IOException
          || t instanceof org.forager.store.StoreException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code e} is not the URL's but the turn's to end: the thread was interrupted (whoever
   * did it wants it to stop; an exception then may be how a library said so), or a lease lost.
   */
  private static boolean stopsTheTurn(Throwable e) {
    if (Thread.currentThread().isInterrupted()) return true;
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < MAX_CAUSES; t = t.getCause()) {
      if (t instanceof InterruptedException || t instanceof org.forager.store.LeaseLostException) return true;
    }
    return false;
  }

  /**
   * The crawl log's reason for a URL the crawler failed on: {@code internal error:
   * java.lang.StackOverflowError}, {@code internal error: java.lang.NullPointerException: ...}.
   */
  static String reason(Throwable e) {
    return cut("internal error: " + e);
  }

  /**
   * The crawl log's reason for a URL refused because a gate failed on it: {@code internal error in the
   * gates: java.lang.StackOverflowError}.
   */
  static String gateReason(Throwable e) {
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
  void contained(String what, String consequence, Throwable e) {
    // A URL of thousands of characters must not push the consequence off the line (the terminal's cut).
    String shown = what.length() <= MAX_SHOWN_CHARS ? what : what.substring(0, MAX_SHOWN_CHARS) + "...";
    Notice.println("forager: internal error on " + shown + ": " + e + "; " + consequence
        + " (stack trace in logs/library.log)");
    LOG.error("internal error on {}; {}", what, consequence, e);
    counted.accept(originOf(what), e);
  }

  /** The origin of {@code what} (a URL, or an origin), for the budget; itself when it is neither. */
  private static String originOf(String what) {
    try {
      return org.forager.url.Origin.ofUrl(what).toString();
    } catch (RuntimeException notAUrl) {
      return what;
    }
  }
}
