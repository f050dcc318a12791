package org.forager.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import org.forager.config.CrawlConfig;

/**
 * Appends one JSON object per crawl action to {@code logs/crawl.jsonl}. Each line is written whole
 * and handed to the operating system before {@link #write} returns (an {@link #append}ed one at the
 * next {@link #handOver}), so a killed process leaves complete lines only (at worst one torn last
 * line). Thread-safe.
 *
 * <p>Rotation ({@link #open(Path, CrawlConfig.Log, Clock)}): once the live file reaches {@code
 * rotate_size}, after a whole line, it is finished into a gzipped part beside it and a new live file
 * started (see {@link LogRotation} for the steps and why a kill loses nothing); readers read the
 * parts in order with {@link CrawlLogFiles}.
 *
 * <p>Errors: a write that fails (disk full) throws an {@link UncheckedIOException} naming the file,
 * and so does every later write, without touching the file: what a failed write left (at worst a
 * torn line) stays last, to be cut by the next {@link #open}, even if space comes back meanwhile.
 * {@link #close} after such a failure releases the file without trying to write again. A rotation
 * whose rename fails fails the same way.
 */
public final class CrawlLog implements AutoCloseable {

  private final Path path;
  /** Empty: the file grows without rotation. */
  private final Optional<LogRotation> rotation;
  private Sink sink;
  /** The first failed write, after which nothing more is written. */
  private IOException failed;

  /** The open live file and the writers over it. */
  private static final class Sink {
    final Counting file;
    final OutputStream out;
    final JsonGenerator json;

    Sink(Path path) throws IOException {
      OutputStream raw = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      file = new Counting(raw, Files.size(path));
      out = new BufferedOutputStream(file, 1 << 16);
      json = new JsonFactory().createGenerator(out);
      json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      // One object per line: no separator between root values (Jackson's default is a space).
      json.setRootValueSeparator(null);
      json.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
    }

    void close() throws IOException {
      json.close();
      out.close();
    }
  }

  /** Counts the bytes the file holds, so that rotation needs no system call per line. */
  private static final class Counting extends FilterOutputStream {
    long bytes;

    Counting(OutputStream file, long bytes) {
      super(file);
      this.bytes = bytes;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      bytes += len;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      bytes++;
    }
  }

  private CrawlLog(Path path, Optional<LogRotation> rotation, Sink sink) {
    this.path = path;
    this.rotation = rotation;
    this.sink = sink;
  }

  /**
   * Opens the log for appending, without rotation, creating the file and its directory. A last line
   * left unfinished by a killed process is cut off first, so that every line stays one whole JSON
   * object.
   */
  public static CrawlLog open(Path file) {
    return open(file, Optional.empty(), Clock.systemUTC());
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
    return open(file, Optional.of(policy), clock);
  }

  private static CrawlLog open(Path file, Optional<CrawlConfig.Log> policy, Clock clock) {
    LogRotation rotation = null;
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      cutUnfinishedLine(file);
      if (policy.isPresent()) {
        rotation = LogRotation.start(file, policy.get(), clock);
        if (policy.get().rotateAtStart() && Files.exists(file) && Files.size(file) > 0) rotation.finish();
      }
      return new CrawlLog(file, Optional.ofNullable(rotation), new Sink(file));
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
  public synchronized void write(CrawlAction a) {
    line(a);
    handOverBuffered();
  }

  /**
   * Appends the action's line to the buffer: it reaches the operating system with the next {@link
   * #handOver} or {@link #write}, or earlier when the buffer (64 KiB) fills. For a caller that hands
   * the log over before the store write its actions lead to, so that the log still comes first: one
   * system call for a page's line and the turn's refusals instead of one a line.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public synchronized void append(CrawlAction a) {
    line(a);
  }

  /**
   * Hands the lines {@link #append}ed so far to the operating system.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public synchronized void handOver() {
    if (failed != null) throw failure(failed);
    handOverBuffered();
  }

  /** Hands the buffered lines to the operating system, and rotates when the file is full; caller holds the lock. */
  private void handOverBuffered() {
    try {
      sink.out.flush();
      if (rotation.isPresent() && sink.file.bytes >= rotation.get().policy().rotateBytes()) rotate(rotation.get());
    } catch (IOException e) {
      failed = e;
      throw failure(e);
    }
  }

  private void line(CrawlAction a) {
    line(json -> {
      json.writeStringField("ts", a.ts().toString());
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
      optional(json, "reason", a.reason());
      if (a.outOfScopeLinks() > 0) json.writeNumberField("out_of_scope_links", a.outOfScopeLinks());
    });
  }

  /**
   * Appends an operator's order ({@code "kind": "control"}), in line with the actions around it.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public synchronized void write(ControlRecord c) {
    line(json -> {
      json.writeStringField("ts", c.ts().toString());
      json.writeStringField("kind", "control");
      json.writeStringField("action", c.action());
      json.writeStringField("by", c.by());
      optional(json, "target", c.target());
      if (c.delayMillis().isPresent()) json.writeNumberField("delay_ms", c.delayMillis().getAsLong());
      optional(json, "result", c.result());
    });
    handOverBuffered();
  }

  /**
   * Appends an event of the crawl itself ({@code "kind": "event"}), in line with the actions around it.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public synchronized void write(EventRecord e) {
    line(json -> {
      json.writeStringField("ts", e.ts().toString());
      json.writeStringField("kind", "event");
      json.writeStringField("event", e.event());
      json.writeStringField("detail", e.detail());
    });
    handOverBuffered();
  }

  /** The fields of one line. */
  private interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  /** Writes one line of {@code fields} into the buffer; caller holds the lock. */
  private void line(Fields fields) {
    if (failed != null) throw failure(failed);
    JsonGenerator json = sink.json;
    try {
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
      json.flush();
      sink.out.write('\n');
    } catch (IOException io) {
      failed = io;
      throw failure(io);
    }
  }

  /** Finishes the live file after a whole line and starts the next. */
  private void rotate(LogRotation r) throws IOException {
    sink.close();
    r.finish();
    sink = new Sink(path);
  }

  private UncheckedIOException failure(IOException e) {
    return new UncheckedIOException("cannot write crawl log " + path + ": " + e.getMessage(), e);
  }

  private static void optional(JsonGenerator json, String name, Optional<String> value) throws IOException {
    if (value.isPresent()) json.writeStringField(name, value.get());
    else json.writeNullField(name);
  }

  /** Closes the live file, then waits for the compression of a part finished last. */
  @Override
  public synchronized void close() {
    try {
      if (failed != null) {
        // The buffers hold what could not be written; writing it now could land after a torn line.
        sink.file.close();
        return;
      }
      sink.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close crawl log " + path + ": " + e.getMessage(), e);
    } finally {
      rotation.ifPresent(LogRotation::close);
    }
  }
}
