package org.forager.config;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * An immutable list of strings packed as UTF-8 in one byte array: a seeds file of a million URLs
 * costs its bytes plus 4 per URL (about 35 MB), where a {@code List<String>} costs some 75 more bytes
 * per URL. Elements are decoded when read. Built with {@link Builder}; thread-safe once built.
 */
final class PackedStrings extends AbstractList<String> implements RandomAccess {

  private final byte[] bytes;
  /** Where each string starts; one more entry holds the end of the last. */
  private final int[] starts;

  private PackedStrings(byte[] bytes, int[] starts) {
    this.bytes = bytes;
    this.starts = starts;
  }

  @Override
  public String get(int index) {
    if (index < 0 || index >= size()) throw new IndexOutOfBoundsException(index);
    return new String(bytes, starts[index], starts[index + 1] - starts[index], StandardCharsets.UTF_8);
  }

  @Override
  public int size() {
    return starts.length - 1;
  }

  /** Collects strings in order; not thread-safe. */
  static final class Builder {
    private byte[] bytes = new byte[1024];
    private int[] starts = new int[64];
    private int count;
    private int length;

    Builder add(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      if ((long) length + utf8.length > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("more than 2 GB of strings");
      }
      if (length + utf8.length > bytes.length) {
        bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(2L * bytes.length, length + utf8.length)));
      }
      if (count + 2 > starts.length) starts = Arrays.copyOf(starts, 2 * starts.length);
      starts[count++] = length;
      System.arraycopy(utf8, 0, bytes, length, utf8.length);
      length += utf8.length;
      return this;
    }

    PackedStrings build() {
      int[] ends = Arrays.copyOf(starts, count + 1);
      ends[count] = length;
      return new PackedStrings(Arrays.copyOf(bytes, length), ends);
    }
  }
}
