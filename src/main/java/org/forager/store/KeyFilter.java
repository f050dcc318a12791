package org.forager.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A Bloom filter of the keys of one column family, so that a lookup of a key the store cannot hold
 * costs no RocksDB call: most of the URLs a page's write looks up are its new links, and most bodies'
 * digests are new, and RocksDB answered each through its memtables and every file's filter behind a
 * native call (issue 15: the URL lookups were 4.5 % of a 1000 x 100 crawl's CPU, two thirds of their
 * keys new; the digest lookups 1 %). "Absent" is exact once the filter is {@link #complete}: every
 * key the family holds was added, at open or before the write that put it; "maybe" is answered by
 * RocksDB as before.
 *
 * <p>Blocked (Putze, Sanders and Singler, "Cache-, hash- and space-efficient Bloom filters", 2007):
 * a key sets {@value #BITS_PER_KEY} bits of one 512-bit block, one cache line, so a probe costs one
 * miss. Its size is fixed at construction; past the keys it was made for its false positives grow
 * (more lookups, never a wrong answer), and past {@link #useful} it is no longer asked.
 *
 * <p>Bits are only ever set, atomically, so adds may run on several threads at once; readers take no
 * lock. What a reader may miss is for its user to say: a key added after the reader's last
 * synchronization with the adder.
 */
final class KeyFilter {

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int BITS_PER_KEY = 6;
  private static final int BLOCK_LONGS = 8;
  /** Bits of the table a key is designed for: about 1 % false positives. */
  private static final int BITS_PER_KEY_DESIGNED = 12;

  private final long[] words;
  private final int blockMask;
  private final long designedKeys;
  private volatile boolean complete;

  /** A filter of {@code bytes} (rounded down to a power of two, 64 at least), empty and not complete. */
  KeyFilter(long bytes) {
    int blocks = blocks(bytes);
    this.words = new long[blocks * BLOCK_LONGS];
    this.blockMask = blocks - 1;
    this.designedKeys = designedKeys(bytes);
  }

  /** How many keys a filter of {@code bytes} is made for. */
  static long designedKeys(long bytes) {
    return (long) blocks(bytes) * BLOCK_LONGS * Long.SIZE / BITS_PER_KEY_DESIGNED;
  }

  private static int blocks(long bytes) {
    long blocks = Long.highestOneBit(Math.max(1, bytes / (BLOCK_LONGS * Long.BYTES)));
    return (int) Math.min(blocks, 1L << 24); // 1 GiB at most; the block index takes 26 bits of a product
  }

  /** Says that every key the store holds has been added: from now on "absent" answers are used. */
  void complete() {
    complete = true;
  }

  /**
   * Whether asking is worth it with {@code keys} in the store: up to four times the keys it was made
   * for (false positives then about one in four).
   */
  boolean useful(long keys) {
    return complete && keys <= 4 * designedKeys;
  }

  /** Adds a key (thread-safe: bits are set atomically, none set by another thread is lost). */
  void add(byte[] key) {
    probe(key, true);
  }

  /** False when the key was never added (exact only once {@link #complete}); true when it may have been. */
  boolean mayContain(byte[] key) {
    return probe(key, false);
  }

  /** Walks the key's bits: adding, sets each one not set yet; else says whether all are set. */
  private boolean probe(byte[] key, boolean add) {
    long h = hash(key);
    int base = block(h);
    long bits = h;
    for (int i = 0; i < BITS_PER_KEY; i++) {
      int bit = (int) (bits & 511);
      int word = base + (bit >>> 6);
      long mask = 1L << bit;
      if ((words[word] & mask) == 0) {
        if (!add) return false;
        WORDS.getAndBitwiseOr(words, word, mask);
      }
      bits >>>= 9;
    }
    return true;
  }

  /**
   * The key's block: the high bits of a product of the hash, which mixes all its bits, rather than the
   * bits that place the key within the block.
   */
  private int block(long h) {
    return ((int) ((h * 0xD6E8FEB86659FD93L) >>> 38) & blockMask) * BLOCK_LONGS;
  }

  /** A 64-bit hash of the key's bytes: eight at a time, then a finalizer that mixes every bit. */
  static long hash(byte[] key) {
    long h = 0x9E3779B97F4A7C15L ^ key.length;
    int i = 0;
    for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
      h = Long.rotateLeft(h ^ ((long) LONGS.get(key, i)) * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
    }
    long tail = 0;
    for (int shift = 0; i < key.length; i++, shift += 8) tail |= (key[i] & 0xFFL) << shift;
    h = Long.rotateLeft(h ^ tail * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }
}
