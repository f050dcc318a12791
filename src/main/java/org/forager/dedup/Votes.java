package org.forager.dedup;

import java.util.Arrays;

/**
 * Per bit of 64-bit features, whether more of them have it set than not. Not thread-safe.
 *
 * <p>Counted bit-sliced: plane j holds bit j of all 64 counters. Features are added eight at a time
 * through a tree of carry-save adders (Harley and Seal's, as in Muła, Kurz and Lemire, "Faster
 * population counts using AVX2 instructions", 2018): planes 0 to 2 take the eight features in 7
 * adders of 5 logic operations each, and their carry, worth 8, goes on to planes 3 to 5 through
 * the same tree, eight carries at a time; only the carry of those, worth 64, ripples on into plane 6
 * and up, in a loop that runs until no carry is left.
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
    for (; k + 64 <= count; k += 64) addSixtyFour(f, k);
    for (; k + 8 <= count; k += 8) {
      ripple(addEight(0, f[k], f[k + 1], f[k + 2], f[k + 3], f[k + 4], f[k + 5], f[k + 6], f[k + 7]), 3);
    }
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

  // Planes 0 to 5 take 64 features in two levels of the 8-feature tree, and only their carry,
  // worth 64, ripples on: a loop whose length varies (a mispredicted exit) once per 64 features,
  // not once per 8.
  private void addSixtyFour(long[] f, int k) {
    long c0 = addEight(0, f[k], f[k + 1], f[k + 2], f[k + 3], f[k + 4], f[k + 5], f[k + 6], f[k + 7]);
    long c1 = addEight(0, f[k + 8], f[k + 9], f[k + 10], f[k + 11], f[k + 12], f[k + 13], f[k + 14], f[k + 15]);
    long c2 = addEight(0, f[k + 16], f[k + 17], f[k + 18], f[k + 19], f[k + 20], f[k + 21], f[k + 22], f[k + 23]);
    long c3 = addEight(0, f[k + 24], f[k + 25], f[k + 26], f[k + 27], f[k + 28], f[k + 29], f[k + 30], f[k + 31]);
    long c4 = addEight(0, f[k + 32], f[k + 33], f[k + 34], f[k + 35], f[k + 36], f[k + 37], f[k + 38], f[k + 39]);
    long c5 = addEight(0, f[k + 40], f[k + 41], f[k + 42], f[k + 43], f[k + 44], f[k + 45], f[k + 46], f[k + 47]);
    long c6 = addEight(0, f[k + 48], f[k + 49], f[k + 50], f[k + 51], f[k + 52], f[k + 53], f[k + 54], f[k + 55]);
    long c7 = addEight(0, f[k + 56], f[k + 57], f[k + 58], f[k + 59], f[k + 60], f[k + 61], f[k + 62], f[k + 63]);
    ripple(addEight(3, c0, c1, c2, c3, c4, c5, c6, c7), 6);
  }

  /**
   * Adds eight values, each worth 2 to the power {@code p}, to planes p to p + 2 by a tree of
   * carry-save adders, as adding them one by one would leave those planes; returns the carry out
   * of plane p + 2, worth 2 to the power p + 3, for the planes above.
   */
  private long addEight(int p, long f0, long f1, long f2, long f3, long f4, long f5, long f6, long f7) {
    long ones = planes[p];
    long twos = planes[p + 1];
    long fours = planes[p + 2];
    long twosA = carry(ones, f0, f1);
    ones = sum(ones, f0, f1);
    long twosB = carry(ones, f2, f3);
    ones = sum(ones, f2, f3);
    long foursA = carry(twos, twosA, twosB);
    twos = sum(twos, twosA, twosB);
    twosA = carry(ones, f4, f5);
    ones = sum(ones, f4, f5);
    twosB = carry(ones, f6, f7);
    ones = sum(ones, f6, f7);
    long foursB = carry(twos, twosA, twosB);
    twos = sum(twos, twosA, twosB);
    planes[p] = ones;
    planes[p + 1] = twos;
    planes[p + 2] = sum(fours, foursA, foursB);
    return carry(fours, foursA, foursB);
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
