package org.forager.dedup;

import java.util.Arrays;

/**
 * Per bit of 64-bit features, whether more of them have it set than not. Not thread-safe.
 *
 * <p>Counted bit-sliced: plane j holds bit j of all 64 counters. Features are added eight at a time
 * through a tree of carry-save adders (Harley and Seal's, as in Muła, Kurz and Lemire, "Faster
 * population counts using AVX2 instructions", 2018): planes 0 to 2 take the eight features in 7
 * adders of 5 logic operations each, and only their carry, worth 8, ripples on into plane 3 and up.
 */
final class Votes {

  private final long[] planes = new long[Long.SIZE];
  private long features;

  /** Forgets every feature added: as new. */
  void reset() {
    Arrays.fill(planes, 0L);
    features = 0;
  }

  /** Adds {@code features[0, count)}. */
  void add(long[] f, int count) {
    int k = 0;
    for (; k + 8 <= count; k += 8) addEight(f, k);
    for (; k < count; k++) ripple(f[k], 0);
    features += count;
  }

  /** Bit b is set when more than half of the features have bit b set (a tie leaves it clear). */
  long majority() {
    // Bit-sliced comparison of all 64 counters with half the features, from the top plane down:
    // a counter is above once it has a 1 where half has a 0 and all higher bits were equal.
    long half = features / 2; // count > features / 2 exactly when 2 * count > features
    long above = 0;
    long equal = -1L;
    for (int j = planes.length - 1; j >= 0; j--) {
      if ((half >>> j & 1) == 0) {
        above |= equal & planes[j];
        equal &= ~planes[j];
      } else {
        equal &= planes[j];
      }
    }
    return above;
  }

  // Keeps planes 0 to 2 the low three bits of each counter, as adding the features one by one would.
  private void addEight(long[] f, int k) {
    long ones = planes[0];
    long twos = planes[1];
    long fours = planes[2];
    long twosA = carry(ones, f[k], f[k + 1]);
    ones = sum(ones, f[k], f[k + 1]);
    long twosB = carry(ones, f[k + 2], f[k + 3]);
    ones = sum(ones, f[k + 2], f[k + 3]);
    long foursA = carry(twos, twosA, twosB);
    twos = sum(twos, twosA, twosB);
    twosA = carry(ones, f[k + 4], f[k + 5]);
    ones = sum(ones, f[k + 4], f[k + 5]);
    twosB = carry(ones, f[k + 6], f[k + 7]);
    ones = sum(ones, f[k + 6], f[k + 7]);
    long foursB = carry(twos, twosA, twosB);
    twos = sum(twos, twosA, twosB);
    planes[0] = ones;
    planes[1] = twos;
    planes[2] = sum(fours, foursA, foursB);
    ripple(carry(fours, foursA, foursB), 3);
  }

  /** Adds {@code bits}, each worth 2 to the power {@code plane}, with a ripple-carry add. */
  private void ripple(long bits, int plane) {
    long carry = bits;
    for (int j = plane; carry != 0; j++) {
      long overflow = planes[j] & carry;
      planes[j] ^= carry;
      carry = overflow;
    }
  }

  /** The sum bits of a full adder per bit position. */
  private static long sum(long a, long b, long c) {
    return a ^ b ^ c;
  }

  /** The carry bits of a full adder per bit position: set where at least two inputs are. */
  private static long carry(long a, long b, long c) {
    return (a & b) | (c & (a ^ b));
  }
}
