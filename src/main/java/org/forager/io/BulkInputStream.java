package org.forager.io;

import java.io.IOException;
import java.io.InputStream;

/**
 * An input stream defined by its bulk read: a one-byte read is a bulk read of one, so that what the
 * bulk read counts, caps and times holds for it too (the body's streams of a fetch).
 */
public abstract class BulkInputStream extends InputStream {

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public abstract int read(byte[] b, int off, int len) throws IOException;
}
