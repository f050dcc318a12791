package org.forager.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Appends one JSON object per crawl action to {@code logs/crawl.jsonl}. Each line is written whole
 * and handed to the operating system before {@link #write} returns, so a killed process leaves
 * complete lines only (at worst one torn last line). Thread-safe.
 *
 * <p>Errors: a write that fails (disk full) throws an {@link UncheckedIOException} naming the file,
 * and so does every later write, without touching the file: what a failed write left (at worst a
 * torn line) stays last, to be cut by the next {@link #open}, even if space comes back meanwhile.
 * {@link #close} after such a failure releases the file without trying to write again.
 */
public final class CrawlLog implements AutoCloseable {

  private final Path path;
  private final OutputStream file;
  private final OutputStream out;
  private final JsonGenerator json;
  /** The first failed write, after which nothing more is written. */
  private IOException failed;

  private CrawlLog(Path path, OutputStream file, OutputStream out, JsonGenerator json) {
    this.path = path;
    this.file = file;
    this.out = out;
    this.json = json;
  }

  /**
   * Opens the log for appending, creating the file and its directory. A last line left unfinished by
   * a killed process is cut off first, so that every line stays one whole JSON object.
   */
  public static CrawlLog open(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      cutUnfinishedLine(file);
      OutputStream raw = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      OutputStream out = new java.io.BufferedOutputStream(raw, 1 << 16);
      JsonGenerator json = new JsonFactory().createGenerator(out);
      json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      // One object per line: no separator between root values (Jackson's default is a space).
      json.setRootValueSeparator(null);
      json.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
      return new CrawlLog(file, raw, out, json);
    } catch (IOException e) {
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
   * Appends the action's line.
   *
   * @throws UncheckedIOException naming the file when this or an earlier write failed
   */
  public synchronized void write(CrawlAction a) {
    if (failed != null) throw failure(failed);
    try {
      json.writeStartObject();
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
      json.writeEndObject();
      json.flush();
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      failed = e;
      throw failure(e);
    }
  }

  private UncheckedIOException failure(IOException e) {
    return new UncheckedIOException("cannot write crawl log " + path + ": " + e.getMessage(), e);
  }

  private static void optional(JsonGenerator json, String name, Optional<String> value) throws IOException {
    if (value.isPresent()) json.writeStringField(name, value.get());
    else json.writeNullField(name);
  }

  @Override
  public synchronized void close() {
    try {
      if (failed != null) {
        // The buffers hold what could not be written; writing it now could land after a torn line.
        file.close();
        return;
      }
      json.close();
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close crawl log " + path + ": " + e.getMessage(), e);
    }
  }
}
