package org.forager.sitemap;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Hands on at most {@code max} bytes of a stream; a read past them throws {@link Stop}, so a
 * decompression bomb costs no more than the cap, whatever it would expand to. Not thread-safe.
 */
final class CappedInputStream extends FilterInputStream {

  private final long max;
  private long count;

  CappedInputStream(InputStream in, long max) {
    super(in);
    this.max = max;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (count >= max) {
      // One byte more says whether the cap cuts anything off; nothing past it is ever decoded.
      if (in.read() == -1) return -1;
      throw new Stop("larger than " + max + " bytes decoded");
    }
    int n = in.read(b, off, (int) Math.min(len, max - count));
    if (n > 0) count += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(Math.min(n, max - count));
    count += skipped;
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /** Bytes handed on so far. */
  long count() {
    return count;
  }
}
