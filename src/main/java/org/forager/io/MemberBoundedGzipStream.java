package org.forager.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * A {@link GZIPInputStream} that refuses a run of gzip members decoding to nothing. The JDK's stream
 * moves from one member to the next by calling its own {@code read} again, once for every member that
 * gave no byte: a hostile body of 12,000 empty members (240 KB; two gzip layers fit it in 1 KB)
 * overflowed the thread's stack, and the {@code StackOverflowError} ended the whole crawl, on every
 * resume (review of session 66). No byte is decoded, so no size or ratio cap sees it.
 */
public final class MemberBoundedGzipStream extends GZIPInputStream {

  /** Members in a row that may decode to nothing; real files have one at most (an empty file's). */
  public static final int MAX_EMPTY_MEMBERS = 64;

  private int depth;

  public MemberBoundedGzipStream(InputStream in, int size) throws IOException {
    super(in, size);
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    // Each nested call is a member that ended without a byte for this read.
    if (++depth > MAX_EMPTY_MEMBERS) {
      depth--;
      throw new ZipException("more than " + MAX_EMPTY_MEMBERS + " gzip members in a row that hold nothing");
    }
    try {
      return super.read(buf, off, len);
    } finally {
      depth--;
    }
  }
}
