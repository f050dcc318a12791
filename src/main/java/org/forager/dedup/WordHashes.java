package org.forager.dedup;

import static org.forager.dedup.Shingles.FNV_BASIS;
import static org.forager.dedup.Shingles.FNV_PRIME;

/**
 * The FNV-1a hashes of the words of a text, computed for many words at once, handed on to
 * {@link Shingles}. Not thread-safe.
 *
 * <p>Hashing a word char by char is a chain of dependent multiplications, and a loop over a word's
 * chars mispredicts its exit at every word's end. Here a word of up to 12 ASCII chars is kept as
 * the 12 bytes that end with it (the bytes before the word zeroed) and a seed; the hashes of 1,024
 * words are then computed column by column, the same step for every word, in loops the JIT turns
 * into vector instructions. A zero byte multiplies the hash by the (odd, so invertible) FNV prime,
 * so the seed is the FNV basis times the prime's inverse once per zero byte: the hash equals
 * FNV-1a over the word's chars alone. Other words are hashed char by char, their hash stored as
 * the seed of 12 zero bytes.
 *
 * <p>Why 12: each step is a multiplication per word, and without vector instructions (C1, other
 * JVMs, or C2 when its vectorizer gives up) the multiplications bound the time: with 16 steps the
 * page took a quarter longer there than hashing char by char, with 12 a tenth (docs/benchmarks.md),
 * and vectorized it is faster too. Few words are longer (0.5 % on the benchmark page), each taking
 * a mispredicted branch; with 8, a fifth of them would.
 */
final class WordHashes {

  private static final int BLOCK = 1024;

  /** The FNV prime's inverse modulo 2^64 (Newton's iteration doubles the correct bits each round). */
  private static final long INVERSE = inverse(FNV_PRIME);

  /** The bytes a word is hashed from in {@link #flush}: the last 4 of {@code first4}, all of {@code last8}. */
  private static final int WIDTH = Integer.BYTES + Long.BYTES;

  /** The seed of a word of n chars: the basis times the inverse, once per zero byte before it. */
  private static final long[] SEEDS = new long[WIDTH + 1];

  /** The top n bytes of a long set. */
  private static final long[] TOP_BYTES = new long[9];

  private static final long UNDO_ZEROS;

  static {
    long seed = FNV_BASIS;
    for (int n = WIDTH; n >= 0; n--) {
      SEEDS[n] = seed;
      seed *= INVERSE;
    }
    for (int n = 1; n <= 8; n++) TOP_BYTES[n] = -1L << 8 * (8 - n);
    long undo = 1;
    for (int k = 0; k < WIDTH; k++) undo *= INVERSE;
    UNDO_ZEROS = undo;
  }

  private final long[] hashes = new long[BLOCK]; // seeds until hashed
  private final long[] first4 = new long[BLOCK]; // in the low 4 bytes
  private final long[] last8 = new long[BLOCK];
  private final Shingles shingles;
  private int count;

  WordHashes(Shingles shingles) {
    this.shingles = shingles;
  }

  /** Forgets the words not yet flushed: as new. */
  void reset() {
    count = 0;
  }

  /**
   * Adds the words of ASCII letters and digits {@code b[at + first, at + last]}, for each pair of the
   * set bits of {@code firsts} and {@code lasts} in turn: the words of up to 64 bytes.
   */
  void addAscii(byte[] b, int at, long firsts, long lasts) {
    if (count > BLOCK - Long.SIZE / 2) flush(); // room for 32 words, the most 64 bytes hold
    int w = count; // a local, not the field: no store and reload between words
    for (; firsts != 0; firsts &= firsts - 1, lasts &= lasts - 1) {
      int start = at + Long.numberOfTrailingZeros(firsts);
      int end = at + Long.numberOfTrailingZeros(lasts) + 1;
      int length = end - start;
      if (length > WIDTH || end < WIDTH) {
        long h = FNV_BASIS;
        for (int k = start; k < end; k++) h = (h ^ WordChars.asciiLowerCase(b[k])) * FNV_PRIME;
        hashes[w] = h * UNDO_ZEROS;
        first4[w] = 0;
        last8[w++] = 0;
      } else {
        hashes[w] = SEEDS[length];
        first4[w] = Swar.asciiLowerCase(Swar.load(b, end - WIDTH)) & (TOP_BYTES[Math.max(length - 8, 0)] >>> 32);
        last8[w++] = Swar.asciiLowerCase(Swar.load(b, end - 8)) & TOP_BYTES[Math.min(length, 8)];
      }
    }
    count = w;
  }

  /** Adds a word by its FNV-1a hash. */
  void add(long hash) {
    hashes[count] = hash * UNDO_ZEROS;
    first4[count] = 0;
    last8[count] = 0;
    if (++count == BLOCK) flush();
  }

  /** Hashes the words buffered and hands them on. */
  void flush() {
    // One step of FNV-1a for all words, then the next: no step waits for the one before it. One
    // step per loop: with four steps in one, C2 vectorized none of them.
    for (int shift = 0; shift < Integer.SIZE; shift += Byte.SIZE) {
      for (int w = 0; w < count; w++) hashes[w] = (hashes[w] ^ (first4[w] >>> shift & 0xFF)) * FNV_PRIME;
    }
    for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
      for (int w = 0; w < count; w++) hashes[w] = (hashes[w] ^ (last8[w] >>> shift & 0xFF)) * FNV_PRIME;
    }
    shingles.add(hashes, count);
    count = 0;
  }

  private static long inverse(long odd) {
    long x = odd; // right in the low 3 bits: odd * odd = 1 mod 8
    for (int round = 0; round < 5; round++) x *= 2 - odd * x;
    return x;
  }
}
