package org.forager.dedup;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * The class of each byte of a page, for {@link Utf8Html}'s reading of text 64 bytes at a time: in
 * each class byte, bit 7 is set for an ASCII letter or digit and bit 6 for {@code '<'},
 * {@code '&'} and every non-ASCII byte: the bytes that stop ASCII text; the other bits mean
 * nothing. Classified a window of 4 KB at a time, as the reading reaches it. One instance
 * serves one page at a time ({@link #of}); not thread-safe.
 *
 * <p>Eight bytes are classified at once in a long, by arithmetic on seven-bit values (as in
 * {@link Swar}): a few operations per 8 bytes without vector instructions, and a loop over a
 * {@code long[]} that a vectorizing JIT (HotSpot's C2) runs several longs per instruction. A loop over
 * the bytes themselves vectorized as well but cost 15 operations per byte where it did not (C1,
 * OpenJ9, or C2 when a rewrite stops its vectorizer): as long as the old reader took for the page.
 */
final class ByteClasses {

  /** The bytes classified at once: enough to pay for the vector loop's setup, small to allocate. */
  static final int WINDOW = 4096;

  private static final long TOPS = Swar.TOPS;
  private static final long SIXES = TOPS >>> 1;

  private static final byte[] NO_PAGE = new byte[0];
  private static final ByteBuffer NO_PAGE_BYTES = ByteBuffer.wrap(NO_PAGE).asReadOnlyBuffer();

  private byte[] page = NO_PAGE;
  private ByteBuffer pageBytes = NO_PAGE_BYTES;
  private final byte[] classes = new byte[WINDOW];
  private final LongBuffer classLongs = ByteBuffer.wrap(classes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
  private final long[] eights = new long[WINDOW / Long.BYTES];
  private int start; // the page index of classes[0]
  private int end;

  /** This instance, now classifying {@code page} (nothing classified yet). */
  ByteClasses of(byte[] page) {
    this.page = page;
    this.pageBytes = ByteBuffer.wrap(page);
    start = 0;
    end = 0;
    return this;
  }

  /** Lets go of the page: a pooled instance must not keep the last page it read alive. */
  void forget() {
    page = NO_PAGE;
    pageBytes = NO_PAGE_BYTES;
  }

  /**
   * The classes of the eight bytes from page index {@code i}, the first one lowest; the window must
   * hold them ({@link #cover}).
   */
  long load(int i) {
    return Swar.load(classes, i - start);
  }

  /**
   * Makes the classes of {@code page[from, from + span)} loadable; {@code span} is 8 to
   * {@value #WINDOW}, and {@code from + span} at most the page's length.
   */
  void cover(int from, int span) {
    if (from + span > end) classify(from);
  }

  private void classify(int from) {
    int length = Math.min(WINDOW, page.length - from);
    int longs = length / Long.BYTES;
    // Copied into longs and back (memory copies): the loop between reads and writes a long[] at one
    // index, the shape the vectorizer takes; over the bytes through a VarHandle it ran scalar.
    pageBytes.slice(from, longs * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(0, eights, 0, longs);
    for (int k = 0; k < longs; k++) eights[k] = classes(eights[k]);
    classLongs.put(0, eights, 0, longs);
    if (length % Long.BYTES != 0) {
      // The last bytes with the seven before them: the same classes again for those.
      Swar.store(classes, length - Long.BYTES, classes(Swar.load(page, from + length - Long.BYTES)));
    }
    start = from;
    end = from + length;
  }

  /**
   * The classes of eight bytes. Under 100 bytes of bytecode (the letter and digit tests not kept in
   * locals): C2 inlines it into the vector loop under the launcher's {@code -XX:FreqInlineSize=100};
   * at 101 bytes it called it eight bytes at a time, scalar (the page a fifth slower), and split in
   * two methods the loop no longer vectorized.
   */
  private static long classes(long x) {
    long low = x & ~TOPS;
    long folded = low | 0x2020202020202020L; // upper-case ASCII letters to lower, digits unchanged
    // Adding 0x7F sets bit 7 unless the byte is 0: only where the xor found the character.
    long other = ((low ^ 0x3C3C3C3C3C3C3C3CL) + ~TOPS) & ((low ^ 0x2626262626262626L) + ~TOPS); // not '<', '&'
    // A range test on seven-bit values: adding 0x80 - first sets bit 7 from first on, 0x7F - last after last.
    return ((folded + 0x1F1F1F1F1F1F1F1FL) & ~(folded + 0x0505050505050505L) // 'a' to 'z'
        | (low + 0x5050505050505050L) & ~(low + 0x4646464646464646L)) // '0' to '9'
        & ~x & TOPS | (~other | x) >>> 1 & SIXES;
  }
}
