package org.forager.dedup;

import static org.forager.dedup.Shingles.FNV_BASIS;
import static org.forager.dedup.Shingles.FNV_PRIME;

import java.util.Arrays;

/**
 * The FNV-1a hashes of the words of a page, computed for many words at once, handed on to
 * {@link Shingles}. One instance reads one page at a time ({@link #of}); not thread-safe.
 *
 * <p>Hashing a word char by char is a chain of dependent multiplications, and a loop over a word's
 * chars mispredicts its exit at every word's end. Here a word of ASCII letters and digits is first
 * noted by where it starts and ends; at a flush, in one loop over the 1,024 words noted, a word of
 * up to 12 chars is kept as the 12 bytes that end with it (the bytes before the word zeroed) and a
 * seed; the hashes are then computed column by column, the same step for every word, in loops the
 * JIT turns into vector instructions. A zero byte multiplies the hash by the (odd, so invertible)
 * FNV prime, so the seed is the FNV basis times the prime's inverse once per zero byte: the hash
 * equals FNV-1a over the word's chars alone. A longer ASCII word is kept as its last 12 bytes, the
 * seed being the hash of its chars before them. A word with other chars is given by the hash of its
 * chars before the ASCII letters and digits that end it, and where those are ({@link #add}): they
 * are hashed in the columns from that hash (12 zero bytes when the word ends in another char).
 *
 * <p>Why noted first: the loop over the words of 64 bytes of text (a run of set bits each) then does
 * two bit scans and two stores a word, and the loop at the flush, counted and without a branch but
 * the rare long word, has its array bounds checked once per loop instead of once per access.
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
  static final int WIDTH = Integer.BYTES + Long.BYTES;

  /** Per word length (mod 16, up to {@link #WIDTH}): the seed, the basis times the inverse once per zero byte. */
  private static final long[] SEEDS = new long[16];

  /** Per word length (mod 16, up to {@link #WIDTH}): the bytes of {@code first4} and {@code last8} it fills. */
  private static final long[] FIRST_MASKS = new long[16];

  private static final long[] LAST_MASKS = new long[16];

  /** Per count of zero bytes (up to {@link #WIDTH}): the FNV prime's inverse to that power, undoing their steps. */
  private static final long[] UNDO_ZEROS = new long[WIDTH + 1];

  /** A page too short to load {@link #WIDTH} bytes from, for the words hashed char by char. */
  private static final byte[] NO_PAGE = new byte[WIDTH];

  static {
    long seed = FNV_BASIS;
    for (int n = WIDTH; n >= 1; n--) {
      SEEDS[n] = seed;
      seed *= INVERSE;
      LAST_MASKS[n] = -1L << 8 * Math.max(8 - n, 0);
      FIRST_MASKS[n] = 0xFFFFFFFFL & -1L << 8 * Math.min(WIDTH - n, 4);
    }
    UNDO_ZEROS[0] = 1;
    for (int k = 1; k <= WIDTH; k++) UNDO_ZEROS[k] = UNDO_ZEROS[k - 1] * INVERSE;
  }

  private byte[] page = NO_PAGE;
  private final int[] starts = new int[BLOCK]; // a given word: its ASCII end, or no length at WIDTH
  private final int[] ends = new int[BLOCK];
  private final int[] givenAt = new int[BLOCK]; // the words given by a hash, and their seeds
  private final long[] givenSeeds = new long[BLOCK];
  private final int[] longAt = new int[BLOCK]; // the words of more than WIDTH ASCII chars
  private int givens;
  private final long[] hashes = new long[BLOCK]; // seeds until hashed
  private final long[] first4 = new long[BLOCK]; // its low 4 bytes hashed
  private final long[] last8 = new long[BLOCK];
  private final Shingles shingles;
  private int count;

  WordHashes(Shingles shingles) {
    this.shingles = shingles;
  }

  /** This instance, now reading {@code page}, with no words noted. */
  WordHashes of(byte[] page) {
    // Words hashed char by char are loaded from 0 (and masked off): the page must hold WIDTH bytes.
    this.page = page.length >= WIDTH ? page : Arrays.copyOf(page, WIDTH);
    count = 0;
    givens = 0;
    return this;
  }

  /** Lets go of the page: a pooled instance must not keep the last page it read alive. */
  void forget() {
    page = NO_PAGE;
  }

  /**
   * Notes the words of ASCII letters and digits {@code page[at + first, at + last]}, for each pair of
   * the set bits of {@code firsts} and {@code lasts} in turn: the words of up to 64 bytes, each
   * ending at {@link #WIDTH} or later.
   */
  void addAscii(int at, long firsts, long lasts) {
    // Room for 32 words, the most 64 bytes hold, and one more: the block is never left full, so the
    // next word given by its hash (add) has room too.
    if (count >= BLOCK - Long.SIZE / 2) flush();
    int w = count; // a local, not the field: no store and reload between words
    for (; firsts != 0; firsts &= firsts - 1, lasts &= lasts - 1) {
      starts[w] = at + Long.numberOfTrailingZeros(firsts);
      ends[w++] = at + Long.numberOfTrailingZeros(lasts) + 1;
    }
    count = w;
  }

  /** Adds a word by its FNV-1a hash. */
  void add(long hash) {
    add(hash, WIDTH, WIDTH);
  }

  /**
   * Adds a word by the FNV-1a hash of its chars before {@code start} and its ASCII letters and digits
   * {@code page[start, end)}, none when {@code start == end}; {@code end} at {@link #WIDTH} or later.
   */
  void add(long hash, int start, int end) {
    int w = count;
    starts[w] = start;
    ends[w] = end;
    givenAt[givens] = w;
    givenSeeds[givens++] = seed(hash, start, end);
    count = w + 1;
    if (count == BLOCK) flush();
  }

  /** The seed of {@code page[start, end)} in the columns when {@code hash} is that of the chars before it. */
  private long seed(long hash, int start, int end) {
    int length = end - start;
    return length <= WIDTH ? hash * UNDO_ZEROS[WIDTH - length] : hash(hash, page, start, end - WIDTH);
  }

  /**
   * FNV-1a from {@code h} over the ASCII letters and digits {@code b[from, to)}, lower-cased; {@code to}
   * at {@link #WIDTH} or later. The last 4 or 12 take the steps of a column, without a branch per
   * byte: the steps for the zero bytes before a short run cost less than a mispredicted loop exit.
   */
  static long asciiHash(long h, byte[] b, int from, int to) {
    int length = to - from;
    if (length <= Integer.BYTES) { // most: the ASCII start of a word before its accented letter
      long last = Swar.asciiLowerCase(Swar.load(b, to - Long.BYTES)) & LAST_MASKS[length];
      return twoSteps(twoSteps(h * UNDO_ZEROS[Integer.BYTES - length], last >>> 32), last >>> 48);
    }
    if (length > WIDTH) {
      h = hash(h, b, from, to - WIDTH);
      length = WIDTH;
    }
    long first = Swar.asciiLowerCase(Swar.load(b, to - WIDTH)) & FIRST_MASKS[length];
    long last = Swar.asciiLowerCase(Swar.load(b, to - Long.BYTES)) & LAST_MASKS[length];
    h *= UNDO_ZEROS[WIDTH - length];
    for (int shift = 0; shift < Integer.SIZE; shift += 2 * Byte.SIZE) h = twoSteps(h, first >>> shift);
    for (int shift = 0; shift < Long.SIZE; shift += 2 * Byte.SIZE) h = twoSteps(h, last >>> shift);
    return h;
  }

  /** Hashes the words noted and hands them on. */
  void flush() {
    loadBytes();
    hashColumns();
    shingles.add(hashes, count);
    count = 0;
    givens = 0;
  }

  /** Sets each word's seed and bytes, {@link #first4} and {@link #last8}. */
  private void loadBytes() {
    byte[] b = page;
    int longs = 0;
    for (int w = 0; w < count; w++) {
      int end = ends[w];
      int length = end - starts[w];
      int l = length & 15; // in the tables' range: no bounds check
      hashes[w] = SEEDS[l];
      first4[w] = Swar.asciiLowerCase(Swar.load(b, end - WIDTH)) & FIRST_MASKS[l];
      last8[w] = Swar.asciiLowerCase(Swar.load(b, end - Long.BYTES)) & LAST_MASKS[l];
      // The long words noted without a branch: with one here, C2 compiled this loop half as fast
      // in about one JVM in eight.
      longAt[longs] = w;
      longs += (WIDTH - length) >>> (Integer.SIZE - 1);
    }
    for (int k = 0; k < longs; k++) longWord(b, longAt[k]);
    for (int g = 0; g < givens; g++) hashes[givenAt[g]] = givenSeeds[g];
  }

  /**
   * Gives word {@code w}, of more than {@link #WIDTH} ASCII chars (0.5 % of the bench page's words),
   * the hash of its chars before the last {@code WIDTH} as the seed of those, all kept.
   */
  private void longWord(byte[] b, int w) {
    int end = ends[w];
    hashes[w] = hash(FNV_BASIS, b, starts[w], end - WIDTH);
    first4[w] = Swar.asciiLowerCase(Swar.load(b, end - WIDTH));
    last8[w] = Swar.asciiLowerCase(Swar.load(b, end - Long.BYTES));
  }

  /** FNV-1a over each word's {@link #WIDTH} bytes, from its seed. */
  private void hashColumns() {
    // Two steps of FNV-1a for all words, then the next two: no step waits for the one before it
    // in another word. Two steps per loop: C2 vectorizes them, 1.8 times as fast as one per loop;
    // with four in one it vectorized none.
    for (int shift = 0; shift < Integer.SIZE; shift += 2 * Byte.SIZE) {
      for (int w = 0; w < count; w++) hashes[w] = twoSteps(hashes[w], first4[w] >>> shift);
    }
    for (int shift = 0; shift < Long.SIZE; shift += 2 * Byte.SIZE) {
      for (int w = 0; w < count; w++) hashes[w] = twoSteps(hashes[w], last8[w] >>> shift);
    }
  }

  /** FNV-1a's steps for the low byte of {@code bytes}, then the next. */
  private static long twoSteps(long h, long bytes) {
    return ((h ^ (bytes & 0xFF)) * FNV_PRIME ^ (bytes >>> Byte.SIZE & 0xFF)) * FNV_PRIME;
  }

  /** FNV-1a from {@code h} over the ASCII letters and digits {@code b[from, to)}, lower-cased, byte by byte. */
  private static long hash(long h, byte[] b, int from, int to) {
    for (int k = from; k < to; k++) h = (h ^ WordChars.asciiLowerCase(b[k])) * FNV_PRIME;
    return h;
  }

  private static long inverse(long odd) {
    long x = odd; // right in the low 3 bits: odd * odd = 1 mod 8
    for (int round = 0; round < 5; round++) x *= 2 - odd * x;
    return x;
  }
}
