package org.forager.dedup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Eight bytes at once, in a long ("SIMD within a register"): a test sets the top bit of every byte
 * that passes, and {@link #mask} gathers those bits into one bit per byte. The arithmetic adds to
 * seven-bit values only, so no carry crosses from one byte into the next. Stateless.
 */
final class Swar {

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  /** The top bit of every byte. */
  static final long TOPS = 0x8080808080808080L;
  private static final long LOWS = ~TOPS;

  private Swar() {}

  /** The eight bytes from {@code at}, the first one lowest. */
  static long load(byte[] b, int at) {
    return (long) LONGS.get(b, at);
  }

  /** Stores {@code x} as the eight bytes from {@code at}, the lowest first. */
  static void store(byte[] b, int at, long x) {
    LONGS.set(b, at, x);
  }

  /** Bit j set when byte j of {@code tops} has its top bit set (the others must be 0). */
  static long mask(long tops) {
    // Each top bit moves to its place in the highest byte; no two products meet, so none carries.
    return (tops >>> 7) * 0x0102040810204080L >>> 56;
  }

  /** The lower case of bytes that are ASCII letters or digits (digits have the bit already). */
  static long asciiLowerCase(long letters) {
    return letters | (ONES * 0x20);
  }

  /** The index of the first {@code target} (ASCII) at or after {@code from}, or -1. */
  static int indexOf(byte[] b, char target, int from) {
    int k = from;
    for (; k + Long.BYTES <= b.length; k += Long.BYTES) {
      long found = equal(load(b, k), target);
      if (found != 0) return k + (Long.numberOfTrailingZeros(found) >>> 3);
    }
    for (; k < b.length; k++) if (b[k] == target) return k;
    return -1;
  }

  /** The bytes equal to {@code c} (ASCII). */
  private static long equal(long x, char c) {
    long y = x ^ (ONES * c); // zero where equal
    return ~(((y & LOWS) + LOWS) | y) & TOPS;
  }
}
