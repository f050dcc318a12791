package org.forager.cli.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.forager.record.TerminalText;

/**
 * The file the libraries' log lines go to ({@code logs/library.log}): one line per event, every
 * character a terminal could act on escaped ({@link TerminalText}), messages cut at
 * {@link #MAX_MESSAGE_CHARS}, stack traces at {@link #MAX_TRACE_LINES} lines.
 *
 * <p>Bounded: at most {@link #LINES_PER_MINUTE} events per logger per minute are written; the rest
 * are counted and noted ("suppressed K lines") when that logger's next minute starts or the log is
 * closed. A file over about {@link #MAX_FILE_BYTES} is renamed {@code library.log.1} (replacing the older
 * one) and a new one started. Until {@link #open} names the file (the data directory is known only
 * once the configuration is read), up to {@link #MAX_BUFFERED} lines wait in memory; the rest are
 * counted. The file is created with its first line. Thread-safe.
 */
public final class LibraryLog {

  public static final int LINES_PER_MINUTE = 60;
  public static final int MAX_MESSAGE_CHARS = 2_000;
  public static final int MAX_TRACE_LINES = 30;
  public static final long MAX_FILE_BYTES = 10L << 20;
  static final int MAX_BUFFERED = 1_000;

  private static final LibraryLog PROCESS = new LibraryLog(System::nanoTime, MAX_FILE_BYTES);

  private final LongSupplier nanoTime;
  private final long maxFileBytes;
  // Not synchronized: a virtual thread blocked in a write must not pin its carrier (JDK 21).
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Window> windows = new HashMap<>();
  private final ArrayDeque<String> buffered = new ArrayDeque<>();
  private long droppedBeforeOpen;
  private Path file;
  private Writer writer;
  private long fileBytes;
  private boolean failed;

  /** A logger's current minute: lines written and suppressed in it. */
  private static final class Window {
    long startNanos;
    int written;
    long suppressed;
  }

  LibraryLog(LongSupplier nanoTime, long maxFileBytes) {
    this.nanoTime = nanoTime;
    this.maxFileBytes = maxFileBytes;
  }

  /** This process's library log, which the SLF4J and java.util.logging routes of {@link Logging} feed. */
  public static LibraryLog process() {
    return PROCESS;
  }

  /**
   * Writes to {@code file} from now on (appending), first what waited in memory. The file and its
   * directory are created with the first line.
   */
  public void open(Path file) {
    lock.lock();
    try {
      closeWriter();
      this.file = file;
      this.failed = false;
      while (!buffered.isEmpty()) write(buffered.poll());
      if (droppedBeforeOpen > 0) {
        write(line("WARN", "forager", droppedBeforeOpen + " more lines were dropped before the log was opened"));
        droppedBeforeOpen = 0;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records one event. {@code level} is a word such as {@code WARN}; {@code message} may be anything
   * a library or a site put in it.
   */
  public void log(String level, String logger, String message, Optional<Throwable> thrown) {
    lock.lock();
    try {
      long now = nanoTime.getAsLong();
      Window window = windows.computeIfAbsent(logger, name -> new Window());
      if (window.written == 0 || now - window.startNanos >= TimeUnit.MINUTES.toNanos(1)) {
        noteSuppressed(logger, window);
        window.startNanos = now;
        window.written = 0;
      }
      if (window.written >= LINES_PER_MINUTE) {
        window.suppressed++;
        return;
      }
      window.written++;
      emit(line(level, logger, TerminalText.escape(message, MAX_MESSAGE_CHARS)));
      thrown.ifPresent(t -> traceLines(t, MAX_TRACE_LINES, 0));
    } finally {
      lock.unlock();
    }
  }

  /** Notes what was suppressed and closes the file; lines logged later wait for the next {@link #open}. */
  public void close() {
    lock.lock();
    try {
      windows.forEach(this::noteSuppressed);
      windows.clear();
      closeWriter();
      file = null;
    } finally {
      lock.unlock();
    }
  }

  /** Pushes what was written to the file; gives up after a moment rather than wait on a stuck writer. */
  public void flushQuietly() {
    try {
      if (!lock.tryLock(100, TimeUnit.MILLISECONDS)) return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    try {
      if (writer != null) writer.flush();
    } catch (IOException | RuntimeException e) {
      // Ending anyway: nothing more to do about it.
    } finally {
      lock.unlock();
    }
  }

  private void noteSuppressed(String logger, Window window) {
    if (window.suppressed == 0) return;
    emit(line("WARN", logger, "suppressed " + window.suppressed + " lines of this logger in the minute before "
        + "(at most " + LINES_PER_MINUTE + " a minute are written)"));
    window.suppressed = 0;
  }

  // A stack trace: the throwable, its frames, then its causes', within the line budget.
  private void traceLines(Throwable t, int budget, int depth) {
    emit((depth == 0 ? "  " : "  caused by: ") + TerminalText.escape(t.toString(), MAX_MESSAGE_CHARS));
    StackTraceElement[] frames = t.getStackTrace();
    int shown = Math.min(frames.length, Math.max(0, budget - 1));
    for (int i = 0; i < shown; i++) emit("    at " + TerminalText.escape(frames[i].toString()));
    if (shown < frames.length) emit("    ... " + (frames.length - shown) + " more");
    Throwable cause = t.getCause();
    if (cause != null && cause != t && depth < 5 && budget - 1 - shown > 0) {
      traceLines(cause, budget - 1 - shown, depth + 1);
    }
  }

  private static String line(String level, String logger, String escapedMessage) {
    return Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + level + " " + TerminalText.escape(logger, 200)
        + ": " + escapedMessage;
  }

  // Caller holds the lock.
  private void emit(String line) {
    if (file != null) {
      write(line);
    } else if (buffered.size() < MAX_BUFFERED) {
      buffered.add(line);
    } else {
      droppedBeforeOpen++;
    }
  }

  // Caller holds the lock. A log that cannot be written is given up, said once on the terminal.
  private void write(String line) {
    if (failed) return;
    try {
      if (writer == null) openWriter();
      if (fileBytes > maxFileBytes) rotate();
      writer.write(line);
      writer.write('\n');
      writer.flush(); // the events just before a crash or a kill are the ones that matter
      fileBytes += line.length() + 1L;
    } catch (IOException e) {
      failed = true;
      closeWriter();
      System.err.println("forager: cannot write " + file + " (" + TerminalText.escape(e.getMessage())
          + "); library log lines are dropped");
    }
  }

  private void openWriter() throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    fileBytes = Files.size(file);
  }

  private void rotate() throws IOException {
    closeWriter();
    Files.move(file, file.resolveSibling(file.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    openWriter();
  }

  private void closeWriter() {
    if (writer == null) return;
    try {
      writer.close();
    } catch (IOException e) {
      // Every line was flushed when written.
    }
    writer = null;
  }
}
