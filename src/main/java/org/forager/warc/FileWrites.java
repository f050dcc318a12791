package org.forager.warc;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * How a WARC file's bytes reach the disk ({@link WarcFile} decides what and where). Either way, what
 * {@link #append} returned from survives a kill of the process: {@link WarcRepair} finds it in the
 * file, or in its staged tail ({@link StagedDirectWrites}). Not thread-safe.
 */
sealed interface FileWrites permits BufferedWrites, StagedDirectWrites {

  /**
   * Appends the remaining bytes of {@code buffers}, {@code total} in all. On failure the file is as
   * it was before the call, or {@link #damaged()}.
   */
  void append(ByteBuffer[] buffers, long total) throws IOException;

  /** Whether a failed append left the file in a state no later append may build on. */
  boolean damaged();

  /** Every byte appended on disk ({@code fsync}) and the file closed, ready to be renamed. */
  void finish() throws IOException;

  /** Closes without finishing: what was appended stays where {@link WarcRepair} finds it. */
  void abandon();
}
