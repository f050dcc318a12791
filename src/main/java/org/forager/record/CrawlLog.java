package org.forager.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.forager.config.CrawlConfig;
import org.forager.warc.InstantText;
import org.forager.warc.StagedTail;

/**
 * Appends one JSON object per crawl action to {@code logs/crawl.jsonl}. Each line is written whole
 * and handed to the operating system before {@link #write} returns (an {@link #append}ed one at the
 * next {@link #handOver}), so a killed process leaves complete lines only (at worst one torn last
 * line). Thread-safe.
 *
 * <p>Handed over, on Linux on a local file system (ext4, xfs, tmpfs), means staged: copied into a
 * small memory-mapped file beside the log, {@code crawl.jsonl.tail}, whose pages outlive a killed
 * process, and written into the log's file 256 KiB at a time ({@link StagedLogWrites}; issue 15: a
 * {@code write(2)} a line was 1.7 % of a crawl's CPU). The next {@link #open} first writes what a
 * killed process left staged into the file at its place, then cuts a torn last line. Readers of the
 * file (tail -f, {@code forager audit} on a running crawl) see a line once its 256 KiB are full, or
 * about {@value #FLUSH_MILLIS} ms after its hand-over at the latest, when the flusher (a thread of
 * the log's) writes what is staged; always before a rotation finishes the file, and on {@link
 * #close}, which deletes the tail. Elsewhere (and for a pipe or a device) every hand-over is a
 * {@code write(2)}, read at once.
 *
 * <p>Rotation ({@link #open(Path, CrawlConfig.Log, Clock)}): once the live file reaches {@code
 * rotate_size}, after a whole line, it is finished into a gzipped part beside it and a new live file
 * started (see {@link LogRotation} for the steps and why a kill loses nothing); readers read the
 * parts in order with {@link CrawlLogFiles}.
 *
 * <p>Errors: a write that fails (disk full: staged, a line the file system has no room for) throws
 * an {@link UncheckedIOException} naming the file, and so does every later write, without touching
 * the file: what a failed write left (at worst a torn line) stays last, to be cut by the next {@link
 * #open}, even if space comes back meanwhile. {@link #close} after such a failure releases the file
 * without trying to write again (a tail is kept, for the next open). A failed flush of what is
 * staged, or a rotation whose rename fails, fails the same way.
 *
 * <p>Threads: a line is made in the caller's thread, then queued; whoever holds the file's lock writes
 * every line queued, in the order they came, and one hand-over of the buffer serves every thread that
 * waits for one. A thread that finds the lock held does not queue on it: it waits for its own
 * hand-over, and every release of the lock wakes the first thread waiting (issue 15: under a monitor,
 * a crawl had 143 threads at once waiting to log, some for seconds, each holding its page). A drain
 * cut short by an unchecked throwable (out of memory, a rotation that threw) still completes every
 * hand-over it took, with a failure that every later write shares.
 */
public final class CrawlLog implements AutoCloseable {

  private static final JsonFactory JSON = new JsonFactory();
  /** The most lines a thread writes for others once its own hand-over is done. */
  private static final int LINES_AFTER_OWN = 256;
  /** The failure of a drain cut short when not even its exception could be made. */
  private static final IOException CUT_SHORT = new IOException("a write was cut short by an unexpected error");
  /** How often the flusher writes the lines staged into the file, for its readers. */
  static final long FLUSH_MILLIS = 250;

  private final Path path;
  /** Empty: the file grows without rotation. */
  private final Optional<LogRotation> rotation;
  /** Whether lines are staged in a tail where the file system takes one. */
  private final boolean staged;
  /** Writes the lines staged into the file; empty when nothing is staged. */
  private final Optional<ScheduledExecutorService> flusher;
  /** Held to write to the file; see the class comment. */
  private final ReentrantLock lock = new ReentrantLock();
  /** Lines and hand-overs not written yet, in the order they came. */
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
  /** Line makers not in use; as many as threads ever made lines at once. */
  private final ConcurrentLinkedQueue<LineMaker> makers = new ConcurrentLinkedQueue<>();
  private LogWrites writes;
  /** The first failed write, after which nothing more is written. */
  private volatile IOException failed;
  private boolean closed;

  /** A JSON generator over a buffer of its own: one line at a time, outside the file's lock. */
  private static final class LineMaker {
    final ByteArrayBuilder bytes = new ByteArrayBuilder(512);
    final JsonGenerator json;

    LineMaker() throws IOException {
      json = JSON.createGenerator(bytes);
      // One object per line: no separator between root values (Jackson's default is a space).
      json.setRootValueSeparator(null);
    }
  }

  /**
   * A line to write (with nobody waiting for it), or a hand-over a thread waits for. Written by the
   * thread that writes it before {@link #done}, read by the waiting thread after.
   */
  private static final class Pending {
    final byte[] line;
    final Thread waiter;
    IOException failure;
    /** The next hand-over the same drain took: a chain that needs no allocation to grow. */
    Pending nextHandedOver;
    volatile boolean done;

    private Pending(byte[] line, Thread waiter) {
      this.line = line;
      this.waiter = waiter;
    }

    static Pending line(byte[] line) {
      return new Pending(line, null);
    }

    static Pending handOver() {
      return new Pending(null, Thread.currentThread());
    }
  }

  private CrawlLog(Path path, Optional<LogRotation> rotation, LogWrites writes, boolean staged, Duration flushEvery) {
    this.path = path;
    this.rotation = rotation;
    this.writes = writes;
    this.staged = staged;
    this.flusher = staged ? Optional.of(Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-crawl-log-flush");
      t.setDaemon(true); // what it has not written is in the tail, written at the next open
      return t;
    })) : Optional.empty();
    long every = flushEvery.toNanos();
    flusher.ifPresent(f -> f.scheduleWithFixedDelay(this::flushStaged, every, every, TimeUnit.NANOSECONDS));
  }

  /**
   * Opens the log for appending, without rotation, creating the file and its directory. The lines a
   * killed process left staged are written into the file first, then a last line left unfinished is
   * cut off, so that every line stays one whole JSON object.
   */
  public static CrawlLog open(Path file) {
    return open(file, Optional.empty(), Clock.systemUTC(), true, Duration.ofMillis(FLUSH_MILLIS));
  }

  /**
   * Opens the log as {@link #open(Path)} does, rotating it as {@code policy} says: first the parts a
   * killed process left are finished and the expired ones deleted; with {@code rotateAtStart} a
   * non-empty live file is finished. Only one process may open a log directory at a time (the
   * store's lock sees to it for a crawl).
   *
   * @param clock the time retention counts from
   */
  public static CrawlLog open(Path file, CrawlConfig.Log policy, Clock clock) {
    return open(file, Optional.of(policy), clock, true, Duration.ofMillis(FLUSH_MILLIS));
  }

  /**
   * Opens the log; with {@code staged} false every hand-over is a {@code write(2)}, wherever the file
   * is; staged, the flusher runs every {@code flushEvery}.
   */
  static CrawlLog open(Path file, Optional<CrawlConfig.Log> policy, Clock clock, boolean staged, Duration flushEvery) {
    LogRotation rotation = null;
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      StagedTail.recover(file); // the lines a killed process had staged, at their place, before the cut
      cutUnfinishedLine(file);
      if (policy.isPresent()) {
        rotation = LogRotation.start(file, policy.get(), clock);
        if (policy.get().rotateAtStart() && Files.exists(file) && Files.size(file) > 0) rotation.finish();
      }
      return new CrawlLog(file, Optional.ofNullable(rotation), LogWrites.open(file, staged), staged, flushEvery);
    } catch (IOException e) {
      if (rotation != null) rotation.close();
      throw new UncheckedIOException("cannot open crawl log " + file + ": " + e.getMessage(), e);
    }
  }

  private static void cutUnfinishedLine(Path file) throws IOException {
    if (!Files.exists(file)) return;
    try (java.nio.channels.FileChannel channel =
        java.nio.channels.FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long end = channel.size();
      java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
      long keep = end;
      while (keep > 0) {
        one.clear();
        channel.read(one, keep - 1);
        if (one.get(0) == '\n') break;
        keep--;
      }
      if (keep < end) channel.truncate(keep);
    }
  }

  /**
   * Appends the action's line and hands it to the operating system, with any {@link #append}ed before.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public void write(CrawlAction a) {
    queue(line(a));
    handOver();
  }

  /**
   * Appends the action's line to the buffer: it is handed over (it survives a kill) with the next
   * {@link #handOver} or {@link #write}, or earlier when the buffer (64 KiB; staged, the tail's
   * region of 256 KiB) fills. For a caller that hands the log over before the store write its actions
   * lead to, so that the log still comes first: one hand-over for a page's line and the turn's
   * refusals instead of one a line.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public void append(CrawlAction a) {
    queue(line(a));
    if (lock.tryLock()) { // into the buffer now, if nobody is writing: the queue stays short
      try {
        writeQueued(null);
      } finally {
        unlock();
      }
      IOException after = failed; // this line's write, or one before or after it in the same drain
      if (after != null) throw failure(after);
    }
  }

  /**
   * Hands the lines {@link #append}ed so far to the operating system.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public void handOver() {
    IOException before = failed;
    if (before != null) throw failure(before);
    Pending mine = Pending.handOver();
    pending.add(mine);
    boolean interrupted = false;
    while (!mine.done) {
      if (lock.tryLock()) {
        try {
          writeQueued(mine);
        } finally {
          unlock();
        }
      } else {
        // The thread holding the lock hands this one over, or wakes this one to do it (see unlock).
        LockSupport.park(this);
        interrupted |= Thread.interrupted(); // kept for the caller, but no reason to stop waiting
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    if (mine.failure != null) throw failure(mine.failure);
  }

  /** Queues a line made outside the lock, unless a write failed already. */
  private void queue(byte[] line) {
    IOException before = failed;
    if (before != null) throw failure(before);
    pending.add(Pending.line(line));
  }

  /**
   * Writes the queued lines into the buffer in the order they came and, when a hand-over was among
   * them, hands the buffer to the operating system once for all of them (then rotates when the file
   * is full); under the lock. Stops at most {@link #LINES_AFTER_OWN} entries after {@code own} (at
   * the queue's end when null): a thread is not kept writing for others while its page waits to go on.
   */
  private void writeQueued(Pending own) {
    Pending first = null;
    Pending last = null;
    IOException failure = null;
    try {
      boolean ownDone = false;
      int afterOwn = 0;
      Pending next;
      while ((own == null || !ownDone || afterOwn++ < LINES_AFTER_OWN) && (next = pending.poll()) != null) {
        if (next.line == null) {
          if (first == null) first = next;
          else last.nextHandedOver = next;
          last = next;
          ownDone |= next == own;
          continue;
        }
        if (failed != null || closed) continue; // nothing more is written after a failure
        try {
          writes.write(next.line);
        } catch (IOException e) {
          failed = e;
        }
      }
      if (first == null) return;
      failure = failed;
      if (failure == null && closed) failure = new IOException("the log is closed");
      if (failure == null) {
        try {
          writes.handOver();
          if (rotation.isPresent() && writes.size() >= rotation.get().policy().rotateBytes()) rotate(rotation.get());
        } catch (IOException e) {
          failed = e;
          failure = e;
        }
      }
    } catch (RuntimeException | Error e) {
      // Cut short (out of memory, a rotation that threw): lines polled may be lost, the buffer and the
      // file are in an unknown state. A failure like a failed write: every later one fails too.
      IOException cut = CUT_SHORT; // allocating may fail again
      try {
        cut = new IOException("cut short by " + e, e);
      } catch (Throwable ignored) {
        // CUT_SHORT it is
      }
      if (failed == null) failed = cut;
      failure = failed;
      throw e;
    } finally {
      // Every hand-over taken is done, whatever happened: its thread is parked until then.
      for (Pending p = first; p != null; p = p.nextHandedOver) {
        p.failure = failure;
        p.done = true;
        if (p.waiter != Thread.currentThread()) LockSupport.unpark(p.waiter);
      }
    }
  }

  /**
   * Releases the lock and wakes the first thread waiting for a hand-over, if any, to write what is
   * queued: a thread that found the lock held relies on this, so every release makes it.
   */
  private void unlock() {
    lock.unlock();
    for (Pending p : pending) {
      if (p.waiter != null) {
        LockSupport.unpark(p.waiter);
        return;
      }
    }
  }

  private byte[] line(CrawlAction a) {
    return line(json -> {
      json.writeStringField("ts", InstantText.of(a.ts()));
      json.writeStringField("kind", a.kind().name().toLowerCase(Locale.ROOT));
      json.writeStringField("url", a.url());
      json.writeStringField("outcome", a.outcome().name());
      json.writeNumberField("http_status", a.httpStatus());
      optional(json, "content_type", a.contentType());
      json.writeNumberField("bytes", a.bytes());
      json.writeNumberField("duration_ms", a.durationMillis());
      optional(json, "ip", a.ip());
      optional(json, "location", a.location());
      optional(json, "digest", a.digest());
      json.writeNumberField("attempt", a.attempt());
      json.writeNumberField("delay_ms", a.delayMillis());
      if (a.retryAfterMillis() >= 0) json.writeNumberField("retry_after_ms", a.retryAfterMillis());
      optional(json, "reason", a.reason());
      if (a.outOfScopeLinks() > 0) json.writeNumberField("out_of_scope_links", a.outOfScopeLinks());
    });
  }

  /**
   * Appends an operator's order ({@code "kind": "control"}), in line with the actions around it.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public void write(ControlRecord c) {
    queue(line(json -> {
      json.writeStringField("ts", InstantText.of(c.ts()));
      json.writeStringField("kind", "control");
      json.writeStringField("action", c.action());
      json.writeStringField("by", c.by());
      optional(json, "target", c.target());
      if (c.delayMillis().isPresent()) json.writeNumberField("delay_ms", c.delayMillis().getAsLong());
      optional(json, "result", c.result());
    }));
    handOver();
  }

  /**
   * Appends an event of the crawl itself ({@code "kind": "event"}), in line with the actions around it.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public void write(EventRecord e) {
    queue(line(json -> {
      json.writeStringField("ts", InstantText.of(e.ts()));
      json.writeStringField("kind", "event");
      json.writeStringField("event", e.event());
      json.writeStringField("detail", e.detail());
    }));
    handOver();
  }

  /** The fields of one line. */
  private interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  /** One line of {@code fields}, its newline included; made in the caller's thread, without the lock. */
  private byte[] line(Fields fields) {
    LineMaker maker = makers.poll();
    try {
      if (maker == null) maker = new LineMaker();
      JsonGenerator json = maker.json;
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
      json.flush();
      maker.bytes.write('\n');
      byte[] line = maker.bytes.toByteArray();
      maker.bytes.reset();
      makers.add(maker);
      return line;
    } catch (IOException io) { // into memory: a field the generator refused, not the file
      throw new UncheckedIOException("cannot make a crawl log line: " + io.getMessage(), io);
    }
  }

  /** Finishes the live file after a whole line (every line in it, its tail deleted) and starts the next. */
  private void rotate(LogRotation r) throws IOException {
    writes.finish();
    r.finish();
    writes = LogWrites.open(path, staged);
  }

  /**
   * Writes the lines handed over but only staged into the file, for its readers: the flusher's task,
   * every {@value #FLUSH_MILLIS} ms. A failure is the log's, as a failed write's.
   */
  void flushStaged() {
    lock.lock();
    try {
      if (closed || failed != null || !writes.behind()) return;
      writes.flush();
    } catch (IOException e) {
      failed = e;
    } catch (RuntimeException e) {
      failed = new IOException("cut short by " + e, e); // thrown, it would end the flusher's task
    } finally {
      unlock();
    }
  }

  private UncheckedIOException failure(IOException e) {
    return new UncheckedIOException("cannot write crawl log " + path + ": " + e.getMessage(), e);
  }

  private static void optional(JsonGenerator json, String name, Optional<String> value) throws IOException {
    if (value.isPresent()) json.writeStringField(name, value.get());
    else json.writeNullField(name);
  }

  /**
   * Writes what is queued and closes the live file, every line in it and its tail deleted, then
   * waits for the compression of a part finished last.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) return;
      Pending last = Pending.handOver();
      pending.add(last);
      writeQueued(null); // every line queued before close, handed over
      closed = true;
      if (failed != null) {
        // The buffer holds what could not be written; writing it now could land after a torn line.
        // A tail keeps what was handed over, written into the file by the next open.
        writes.abandon();
        return;
      }
      writes.finish();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close crawl log " + path + ": " + e.getMessage(), e);
    } finally {
      try {
        flusher.ifPresent(ScheduledExecutorService::shutdownNow);
        rotation.ifPresent(LogRotation::close);
      } finally {
        unlock();
      }
    }
  }

  /**
   * Leaves the log as a kill of the process would: the file closed without another byte written,
   * the tail (holding what was handed over) left for the next {@link #open}. For tests.
   */
  void abandon() {
    lock.lock();
    try {
      closed = true;
      writes.abandon();
    } finally {
      try {
        flusher.ifPresent(ScheduledExecutorService::shutdownNow);
        rotation.ifPresent(LogRotation::close);
      } finally {
        unlock();
      }
    }
  }
}
