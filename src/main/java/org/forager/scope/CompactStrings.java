package org.forager.scope;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * An immutable set of ASCII strings packed into one byte array, sorted, for exact membership by
 * binary search: about 4 bytes per string beyond its characters, where a {@code HashSet<String>}
 * costs some 60 (a million seed origins: 31 MB rather than 100). Thread-safe.
 */
final class CompactStrings {

  private final byte[] bytes;
  /** Where each string starts in {@link #bytes}; one more entry holds the end of the last. */
  private final int[] starts;

  private CompactStrings(byte[] bytes, int[] starts) {
    this.bytes = bytes;
    this.starts = starts;
  }

  /**
   * The set of {@code strings}.
   *
   * @throws IllegalArgumentException when one is not ASCII (normalized hosts and origins are)
   */
  static CompactStrings of(Collection<String> strings) {
    String[] sorted = strings.toArray(String[]::new);
    Arrays.sort(sorted); // for ASCII, String order is byte order
    int unique = 0;
    long length = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i > 0 && sorted[i].equals(sorted[unique - 1])) continue;
      sorted[unique++] = sorted[i];
      length += sorted[i].length();
    }
    if (length > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("too many strings: " + length + " bytes");
    byte[] bytes = new byte[(int) length];
    int[] starts = new int[unique + 1];
    int at = 0;
    for (int i = 0; i < unique; i++) {
      starts[i] = at;
      String s = sorted[i];
      for (int j = 0; j < s.length(); j++) {
        char c = s.charAt(j);
        if (c > 0x7F) throw new IllegalArgumentException("not ASCII: " + s);
        bytes[at++] = (byte) c;
      }
    }
    starts[unique] = at;
    return new CompactStrings(bytes, starts);
  }

  /**
   * Collects strings, cheaply when they come in order (a store's scope does): each is appended as it
   * comes; strings out of order are sorted once at the end. Not thread-safe.
   */
  static final class Builder {
    private byte[] bytes = new byte[1024];
    private int[] starts = new int[64];
    private int count;
    private int length;
    private String last;
    private boolean sorted = true;

    Builder add(String s) {
      if (last != null) {
        int c = s.compareTo(last);
        if (c == 0) return this;
        if (c < 0) sorted = false;
      }
      if ((long) length + s.length() > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("too many strings");
      if (length + s.length() > bytes.length) {
        bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(2L * bytes.length, length + s.length())));
      }
      if (count + 2 > starts.length) starts = Arrays.copyOf(starts, 2 * starts.length);
      starts[count++] = length;
      for (int j = 0; j < s.length(); j++) {
        char c = s.charAt(j);
        if (c > 0x7F) throw new IllegalArgumentException("not ASCII: " + s);
        bytes[length++] = (byte) c;
      }
      last = s;
      return this;
    }

    CompactStrings build() {
      int[] ends = Arrays.copyOf(starts, count + 1);
      ends[count] = length;
      CompactStrings built = new CompactStrings(Arrays.copyOf(bytes, length), ends);
      if (sorted) return built;
      List<String> all = new ArrayList<>(count);
      for (int i = 0; i < count; i++) all.add(built.get(i));
      return of(all);
    }
  }

  private String get(int index) {
    return new String(bytes, starts[index], starts[index + 1] - starts[index], StandardCharsets.US_ASCII);
  }

  int size() {
    return starts.length - 1;
  }

  /** Whether {@code s} is in the set: a binary search, no allocation. */
  boolean contains(CharSequence s) {
    int low = 0;
    int high = size() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int c = compare(mid, s);
      if (c < 0) low = mid + 1;
      else if (c > 0) high = mid - 1;
      else return true;
    }
    return false;
  }

  /** The stored string {@code index} against {@code s}, by character (byte) order. */
  private int compare(int index, CharSequence s) {
    int from = starts[index];
    int length = starts[index + 1] - from;
    int n = Math.min(length, s.length());
    for (int i = 0; i < n; i++) {
      int d = (bytes[from + i] & 0xFF) - s.charAt(i);
      if (d != 0) return d;
    }
    return length - s.length();
  }
}
