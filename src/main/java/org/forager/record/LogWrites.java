package org.forager.record;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the live file's lines reach the operating system ({@link CrawlLog} decides what and when):
 * staged in a mapped tail where the file system takes one ({@link StagedLogWrites}), else through a
 * buffer and a {@code write(2)} per hand-over ({@link BufferedLogWrites}). Either way a line handed
 * over survives a kill of the process: in the file, or in the tail that the next {@link CrawlLog#open}
 * writes into it. Used under the log's lock; not thread-safe.
 */
sealed interface LogWrites permits BufferedLogWrites, StagedLogWrites {

  /** Writes to {@code file}, staged when {@code staged} and the file system takes it. */
  static LogWrites open(Path file, boolean staged) throws IOException {
    if (staged) {
      Optional<StagedLogWrites> s = StagedLogWrites.open(file);
      if (s.isPresent()) return s.get();
    }
    return new BufferedLogWrites(file);
  }

  /** Takes a whole line (its newline included), to be handed over with the next {@link #handOver}. */
  void write(byte[] line) throws IOException;

  /** Makes every line written so far survive a kill of the process. */
  void handOver() throws IOException;

  /** The file's size with every line written so far: what rotation counts. */
  long size();

  /** Whether lines handed over are not in the file itself yet (a reader of the file does not see them). */
  boolean behind();

  /** Writes the lines handed over into the file itself, for its readers. */
  void flush() throws IOException;

  /** Writes every line into the file and closes it; a tail is deleted. */
  void finish() throws IOException;

  /** Closes the file without writing anything more (after a failure); a tail is kept for the next open. */
  void abandon();
}
