package org.forager.bench.web;

/**
 * A deterministic pseudo-random sequence (SplitMix64, Steele, Lea and Flood 2014), written out here
 * so that the synthetic web's content never changes with the JDK.
 */
final class Mix {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long state;

  Mix(long seed) {
    state = seed;
  }

  /** A sequence for one (a, b) pair, e.g. (host, page). */
  static Mix of(long a, long b) {
    return new Mix(scramble(a * GOLDEN + scramble(b + 0x632BE59BD9B4E019L)));
  }

  long nextLong() {
    return scramble(state += GOLDEN);
  }

  /** Uniform in 0..bound-1 (bound at least 1); the tiny modulo bias does not matter here. */
  int nextInt(int bound) {
    return (int) ((nextLong() >>> 1) % bound);
  }

  static long scramble(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
