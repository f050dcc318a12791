package org.forager.extract;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.Charset;

/**
 * A page's bytes as {@link Markup}, read without decoding the page: only the ranges the reader keeps are
 * decoded. For UTF-8 and the single-byte encodings whose bytes below 0x80 are ASCII ({@link #canRead}):
 * there an ASCII byte is that character wherever it is, never part of a multi-byte sequence nor of a
 * malformed one, so each range between two ASCII bytes decodes on its own to what it is in the whole page
 * decoded.
 */
final class ByteMarkup extends Markup {

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private final byte[] bytes;
  private final Charset charset;

  /** The bytes of {@code bytes} from {@code start} on, in {@code charset}, which {@link #canRead} must accept. */
  ByteMarkup(byte[] bytes, int start, Charset charset) {
    super(start, bytes.length);
    this.bytes = bytes;
    this.charset = charset;
  }

  /**
   * Whether pages in {@code charset} can be read as bytes: UTF-8, or a single-byte encoding where each byte
   * below 0x80 is that ASCII character and no other byte decodes to ASCII.
   */
  static boolean canRead(Charset charset) {
    if (charset.equals(UTF_8)) return true;
    if (!charset.canEncode() || charset.newEncoder().maxBytesPerChar() != 1.0f) return false;
    byte[] all = new byte[256];
    for (int b = 0; b < 256; b++) all[b] = (byte) b;
    String decoded = new String(all, charset);
    if (decoded.length() != 256) return false;
    for (int b = 0; b < 256; b++) {
      if (b < 0x80 ? decoded.charAt(b) != b : decoded.charAt(b) < 0x80) return false;
    }
    return true;
  }

  @Override
  int at(int i) {
    return bytes[i] & 0xFF;
  }

  /** Eight bytes at a time: a word's bytes equal to {@code c} are its zero bytes after an XOR. */
  @Override
  int indexOf(int c, int from) {
    long pattern = ONES * c;
    int i = from;
    for (; i <= end - 8; i += 8) {
      long x = (long) LONGS.get(bytes, i) ^ pattern;
      // The lowest flagged byte is the first zero byte (a borrow only flags bytes above one).
      long zeros = (x - ONES) & ~x & HIGHS;
      if (zeros != 0) return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
    }
    for (; i < end; i++) {
      if (bytes[i] == c) return i;
    }
    return -1;
  }

  @Override
  int until(int from, int to, int classes) {
    int i = from;
    while (i < to && (CLASSES[bytes[i] & 0xFF] & classes) == 0) i++;
    return i;
  }

  @Override
  String text(int from, int to) {
    // Most values are ASCII: copied as they are, without a decoder (Java makes one per call but for UTF-8).
    return new String(bytes, from, to - from, charset == UTF_8 || !isAscii(from, to) ? charset : ISO_8859_1);
  }

  @Override
  void appendText(StringBuilder out, int from, int to) {
    if (!isAscii(from, to)) {
      out.append(text(from, to));
      return;
    }
    for (int i = from; i < to; i++) out.append((char) bytes[i]);
  }

  private boolean isAscii(int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] < 0) return false;
    }
    return true;
  }
}
