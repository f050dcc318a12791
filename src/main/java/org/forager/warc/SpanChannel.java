package org.forager.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * One record's bytes of a WARC file, {@link RecordSpan}, as a channel of their own: reads are
 * positional, so the file's position is untouched and many spans of one open file may be read at
 * once; closing it leaves the file open.
 */
final class SpanChannel implements ReadableByteChannel {

  private final FileChannel file;
  private final long end;
  private long position;
  private boolean open = true;

  SpanChannel(FileChannel file, RecordSpan span) {
    this.file = file;
    this.position = span.offset();
    this.end = span.offset() + span.length();
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) throw new java.nio.channels.ClosedChannelException();
    if (position >= end) return -1;
    int limit = dst.limit();
    if (dst.remaining() > end - position) dst.limit(dst.position() + (int) (end - position));
    try {
      int n = file.read(dst, position);
      if (n > 0) position += n;
      return n;
    } finally {
      dst.limit(limit);
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }
}
