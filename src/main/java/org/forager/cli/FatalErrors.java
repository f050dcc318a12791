package org.forager.cli;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.forager.cli.log.LibraryLog;
import org.forager.record.TerminalText;

/**
 * What the {@code forager} process does when a thread dies of an exception nobody caught: never
 * hang, never limp on, never print a stack trace to the terminal.
 *
 * <ul>
 *   <li>An {@link OutOfMemoryError}, in any thread, ends the process at once (exit 1) with one line
 *       saying what ran out and which setting to change. The line is encoded in advance: printing it
 *       must not need the memory that just ran out. Shutdown hooks do not run (they may wait on the
 *       threads that are failing); the data directory is left as after a kill, and the next run
 *       resumes (the WARC file in progress is finished then).
 *   <li>Any other error in a platform thread (the main thread, a timer, the status server's
 *       dispatcher, a library's housekeeper) ends the process the same way: that thread's job
 *       (deadlines, wake-ups, the stop on a signal) would silently stop being done.
 *   <li>Any other error in a virtual thread (a crawl turn, a fetch's abort, a status request) is
 *       survived: one line (the first {@value #MAX_SURVIVED_LINES}), the stack trace in
 *       {@code logs/library.log}; the crawl scheduler drops that origin's task for the run.
 * </ul>
 *
 * <p>Installed as the default uncaught-exception handler by {@link Main#main} only: embedding
 * programs and tests keep theirs.
 */
final class FatalErrors implements Thread.UncaughtExceptionHandler {

  /** Survived errors printed on the terminal; the rest only in the library log. */
  static final int MAX_SURVIVED_LINES = 10;
  /**
   * What to change when the heap runs out: it holds the bodies in flight, the origin working set and
   * about 60 bytes per seed (docs/benchmarks.md, issue 14).
   */
  static final String HEAP_FIX = "raise FORAGER_HEAP (the JVM's -Xmx), or lower concurrency, limits.max_page_bytes"
      + " or limits.max_active_origins";

  private final PrintStream err;
  private final IntConsumer halt;
  private final long maxHeapBytes;
  private final byte[] heapLine;
  private final AtomicBoolean ending = new AtomicBoolean();
  private final AtomicInteger survived = new AtomicInteger();

  FatalErrors(PrintStream err, IntConsumer halt, long maxHeapBytes) {
    this.err = err;
    this.halt = halt;
    this.maxHeapBytes = maxHeapBytes;
    this.heapLine = (outOfMemoryLine("Java heap space") + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
  }

  /** Makes this the handler of every thread of the process that has none of its own. */
  static void install() {
    Thread.setDefaultUncaughtExceptionHandler(new FatalErrors(System.err, Runtime.getRuntime()::halt, maxHeap()));
  }

  @Override
  public void uncaughtException(Thread thread, Throwable e) {
    Optional<OutOfMemoryError> oom = outOfMemory(e);
    if (oom.isPresent()) {
      end(oom.get());
    } else if (thread.isVirtual()) {
      String line = "forager: internal error in a crawl or status task: " + oneLine(e) + "; that task is dropped "
          + "(stack trace in logs/library.log)";
      LibraryLog.process().log("ERROR", "org.forager", line, Optional.of(e));
      int n = survived.incrementAndGet();
      if (n <= MAX_SURVIVED_LINES) err.println(line);
      if (n == MAX_SURVIVED_LINES) err.println("forager: further internal errors go to logs/library.log only");
    } else {
      String line = "forager: internal thread \"" + TerminalText.escape(thread.getName()) + "\" died: " + oneLine(e)
          + "; stopping (stack trace in logs/library.log); what was recorded is safe, run again to resume";
      LibraryLog.process().log("ERROR", "org.forager", line, Optional.of(e));
      end(line);
    }
  }

  private void end(OutOfMemoryError e) {
    if (!ending.compareAndSet(false, true)) return; // the first one is ending the process
    byte[] line = heapLine;
    try {
      String message = e.getMessage();
      if (message != null && !isHeap(message)) {
        line = (outOfMemoryLine(message) + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
      }
    } catch (Throwable stillOutOfMemory) {
      // The line made in advance says enough.
    }
    err.write(line, 0, line.length);
    err.flush();
    LibraryLog.process().flushQuietly();
    halt.accept(Main.EXIT_RUNTIME);
  }

  private void end(String line) {
    if (!ending.compareAndSet(false, true)) return;
    err.println(line);
    err.flush();
    LibraryLog.process().flushQuietly();
    halt.accept(Main.EXIT_RUNTIME);
  }

  /** The one line for an out-of-memory error with this JVM message ("Java heap space", "Metaspace", ...). */
  String outOfMemoryLine(String jvmMessage) {
    String what;
    String fix;
    if (isHeap(jvmMessage)) {
      what = "Java heap, " + (maxHeapBytes + (1 << 19) >> 20) + " MiB";
      fix = HEAP_FIX;
    } else if (jvmMessage.contains("Direct buffer")) {
      what = "direct buffers";
      fix = "raise -XX:MaxDirectMemorySize in FORAGER_JAVA_OPTS or lower concurrency";
    } else if (jvmMessage.contains("native thread")) {
      what = "threads";
      fix = "lower concurrency or raise the limit on processes (ulimit -u)";
    } else if (jvmMessage.contains("Metaspace") || jvmMessage.contains("class space")) {
      what = TerminalText.escape(jvmMessage);
      fix = "raise -XX:MaxMetaspaceSize in FORAGER_JAVA_OPTS";
    } else {
      what = TerminalText.escape(jvmMessage);
      fix = HEAP_FIX;
    }
    return "forager: out of memory (" + what + "): " + fix + "; what was recorded is safe, run again to resume";
  }

  private static boolean isHeap(String jvmMessage) {
    return jvmMessage.contains("Java heap") || jvmMessage.contains("GC overhead")
        || jvmMessage.contains("array size");
  }

  private static Optional<OutOfMemoryError> outOfMemory(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof OutOfMemoryError oom) return Optional.of(oom);
    }
    return Optional.empty();
  }

  private static String oneLine(Throwable e) {
    return TerminalText.escape(e.toString(), 300);
  }

  /** The heap limit as set (-Xmx); {@link Runtime#maxMemory} can be a survivor space less. */
  private static long maxHeap() {
    try {
      return Long.parseLong(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
          .getVMOption("MaxHeapSize").getValue());
    } catch (RuntimeException notHotSpot) {
      return Runtime.getRuntime().maxMemory();
    }
  }
}
