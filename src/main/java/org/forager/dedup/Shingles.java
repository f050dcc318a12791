package org.forager.dedup;

import java.util.OptionalLong;

/**
 * The features of a text's words, and their simhash: each run of {@value #SHINGLE} consecutive
 * words (a shingle) is one feature, the mixed hashes of its words. Not thread-safe.
 */
final class Shingles {

  /** Fewer words than one shingle: no simhash, since an empty text would match every other. */
  static final int SHINGLE = 3;

  /** FNV-1a 64's start: a word's hash is {@code h = (h ^ c) * FNV_PRIME} over its lower-cased chars. */
  static final long FNV_BASIS = 0xcbf29ce484222325L;

  static final long FNV_PRIME = 0x100000001b3L;

  private static final int BLOCK = 1024;

  private final long[] words = new long[BLOCK + SHINGLE - 1]; // the last two of the block before first
  private final long[] features = new long[BLOCK];
  private final Votes votes = new Votes();
  private int buffered;
  private long total;

  /** Forgets every word added: as new. */
  void reset() {
    buffered = 0;
    total = 0;
    votes.reset();
  }

  /** Adds the next {@code count} words, by their FNV-1a hashes. */
  void add(long[] hashes, int count) {
    for (int k = 0; k < count; ) {
      int n = Math.min(count - k, words.length - buffered);
      System.arraycopy(hashes, k, words, buffered, n);
      buffered += n;
      k += n;
      if (buffered == words.length) flush();
    }
    total += count;
  }

  /** Adds the next word, by its FNV-1a hash. */
  void add(long hash) {
    words[buffered++] = hash;
    total++;
    if (buffered == words.length) flush();
  }

  /** The simhash of the words added; empty with fewer than {@value #SHINGLE}. Called once, at the end. */
  OptionalLong simhash() {
    if (total < SHINGLE) return OptionalLong.empty();
    flush();
    return OptionalLong.of(votes.majority());
  }

  private void flush() {
    int shingles = buffered - (SHINGLE - 1);
    if (shingles <= 0) return;
    // Loops of their own, over arrays: the JIT runs several shingles per vector instruction. Two
    // loops, not one: C2 vectorized neither the sum and the mix in one loop (2.7 times slower).
    for (int k = 0; k < shingles; k++) {
      features[k] = words[k] * 0x9E3779B97F4A7C15L + words[k + 1] * 0xC2B2AE3D27D4EB4FL + words[k + 2];
    }
    for (int k = 0; k < shingles; k++) features[k] = mix(features[k]);
    votes.add(features, shingles);
    words[0] = words[buffered - 2];
    words[1] = words[buffered - 1];
    buffered = SHINGLE - 1;
  }

  /** A finalizer (SplitMix64's): every input bit flips each output bit with probability about 1/2. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
