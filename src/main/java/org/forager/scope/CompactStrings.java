package org.forager.scope;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * An immutable set of ASCII strings packed into one byte array, for exact membership through an
 * open-addressing table of their indexes: about 12 bytes per string beyond its characters, where a
 * {@code HashSet<String>} costs some 60 (a million seed origins: 39 MB rather than 100). A lookup
 * hashes the probe once and compares it with one stored string, rarely more (a binary search
 * compared some twenty of a million, each along the long prefix origins share; it was 1.4 % of a
 * crawl's CPU, once for every link). Thread-safe.
 */
final class CompactStrings {

  private final byte[] bytes;
  /** Where each string starts in {@link #bytes}; one more entry holds the end of the last. */
  private final int[] starts;
  /** Open addressing, linear probing: index + 1 of the string whose hash lands there, 0 for none. */
  private final int[] slots;

  private CompactStrings(byte[] bytes, int[] starts) {
    this.bytes = bytes;
    this.starts = starts;
    int size = starts.length - 1;
    // At most half full, so a miss probes about 1.5 slots.
    this.slots = new int[Math.max(2, Integer.highestOneBit(Math.max(1, size)) << 2)];
    int mask = slots.length - 1;
    for (int i = 0; i < size; i++) {
      int slot = hashOfStored(i) & mask;
      while (slots[slot] != 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
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

  /** Whether {@code s} is in the set; no allocation. */
  boolean contains(CharSequence s) {
    return containsPrefix(s, s.length());
  }

  /** Whether the first {@code length} characters of {@code s} are a string of the set; no allocation. */
  boolean containsPrefix(CharSequence s, int length) {
    int mask = slots.length - 1;
    for (int slot = hash(s, length) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
      if (equals(slots[slot] - 1, s, length)) return true;
    }
    return false;
  }

  private boolean equals(int index, CharSequence s, int length) {
    int from = starts[index];
    if (starts[index + 1] - from != length) return false;
    for (int i = 0; i < length; i++) {
      if ((bytes[from + i] & 0xFF) != s.charAt(i)) return false;
    }
    return true;
  }

  private int hashOfStored(int index) {
    int h = 0;
    for (int i = starts[index]; i < starts[index + 1]; i++) h = 31 * h + (bytes[i] & 0xFF);
    return spread(h);
  }

  private static int hash(CharSequence s, int length) {
    int h = 0;
    for (int i = 0; i < length; i++) h = 31 * h + s.charAt(i);
    return spread(h);
  }

  /** Low bits that depend on every bit of {@code h} (the table takes the low ones). */
  private static int spread(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
