package org.forager.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Appends through the page cache, one gathering write ({@code writev}) a call: where the file system
 * takes no direct I/O ({@link StagedDirectWrites}). Not thread-safe.
 */
final class BufferedWrites implements FileWrites {

  private final FileChannel channel;
  private long size;
  private boolean damaged;

  BufferedWrites(FileChannel channel) {
    this.channel = channel;
  }

  @Override
  public void append(ByteBuffer[] buffers, long total) throws IOException {
    long before = size;
    try {
      for (long written = 0; written < total; ) written += channel.write(buffers);
      size += total;
    } catch (IOException e) {
      // Cut back to where it was, so the file still ends on a record boundary.
      try {
        channel.truncate(before);
        channel.position(before);
      } catch (IOException | RuntimeException t) {
        damaged = true;
        e.addSuppressed(t);
      }
      throw e;
    }
  }

  @Override
  public boolean damaged() {
    return damaged;
  }

  @Override
  public void finish() throws IOException {
    try (channel) {
      channel.force(true);
    }
  }

  @Override
  public void abandon() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing more can be done for this file; the caller is already reporting the first error.
    }
  }
}
