package org.forager.fetch;

import java.util.concurrent.ThreadFactory;

/**
 * Starts each abort of a fetch on a thread of its own, so that an abort that blocks (closing a TLS
 * socket can) delays no other, and one that throws (an {@link Error} included) is logged and costs
 * nothing else. When no thread can be started for an abort (out of memory), it runs on the caller's
 * thread: late is better than never. Used by {@link DeadlineTimer} and {@link FetchSweeper}.
 * Thread-safe when its thread factory is.
 */
final class AbortThreads {

  private static final System.Logger LOG = System.getLogger(AbortThreads.class.getName());

  private final ThreadFactory threads;

  /** @param threads makes the (unstarted) thread each abort runs on */
  AbortThreads(ThreadFactory threads) {
    this.threads = threads;
  }

  void start(Runnable abort) {
    Thread thread;
    try {
      thread = threads.newThread(() -> runLogged(abort));
      if (thread == null) throw new IllegalStateException("no thread for a fetch abort");
      thread.start();
    } catch (RuntimeException | Error e) {
      // This fetch must still be cut.
      runLogged(abort);
    }
  }

  private static void runLogged(Runnable abort) {
    try {
      abort.run();
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.WARNING, "a fetch abort failed", e);
    }
  }
}
