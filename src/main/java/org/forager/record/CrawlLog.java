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
 */
public final class CrawlLog implements AutoCloseable {

  private final Path path;
  private final OutputStream out;
  private final JsonGenerator json;

  private CrawlLog(Path path, OutputStream out, JsonGenerator json) {
    this.path = path;
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
      OutputStream out = new java.io.BufferedOutputStream(
          Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND), 1 << 16);
      JsonGenerator json = new JsonFactory().createGenerator(out);
      json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      // One object per line: no separator between root values (Jackson's default is a space).
      json.setRootValueSeparator(null);
      json.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
      return new CrawlLog(file, out, json);
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

  public synchronized void write(CrawlAction a) {
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
      optional(json, "location", a.location());
      optional(json, "digest", a.digest());
      json.writeNumberField("attempt", a.attempt());
      json.writeNumberField("delay_ms", a.delayMillis());
      optional(json, "reason", a.reason());
      json.writeEndObject();
      json.flush();
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write crawl log " + path + ": " + e.getMessage(), e);
    }
  }

  private static void optional(JsonGenerator json, String name, Optional<String> value) throws IOException {
    if (value.isPresent()) json.writeStringField(name, value.get());
    else json.writeNullField(name);
  }

  @Override
  public synchronized void close() {
    try {
      json.close();
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close crawl log " + path + ": " + e.getMessage(), e);
    }
  }
}
