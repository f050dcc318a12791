package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * Reads what {@link ByteWriter} wrote. A truncated or malformed value throws
 * {@link StoreException}: the store's data is corrupt. Not thread-safe.
 */
final class ByteReader {

  private final byte[] bytes;
  private int position;

  ByteReader(byte[] bytes) {
    this(bytes, 0);
  }

  ByteReader(byte[] bytes, int offset) {
    this.bytes = bytes;
    this.position = offset;
  }

  /** Whether every byte was read: fields a later version appended are not there. */
  boolean atEnd() {
    return position >= bytes.length;
  }

  int readByte() {
    require(1);
    return bytes[position++] & 0xFF;
  }

  long readLongBigEndian() {
    require(8);
    long value = 0;
    for (int i = 0; i < 8; i++) value = (value << 8) | (bytes[position++] & 0xFF);
    return value;
  }

  int readShortBigEndian() {
    require(2);
    int value = ((bytes[position] & 0xFF) << 8) | (bytes[position + 1] & 0xFF);
    position += 2;
    return value;
  }

  long readVarLong() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) return value;
    }
    throw corrupt("varint longer than 10 bytes");
  }

  int readVarInt() {
    long value = readVarLong();
    if (value < 0 || value > Integer.MAX_VALUE) throw corrupt("int out of range: " + value);
    return (int) value;
  }

  long readSignedVarLong() {
    long raw = readVarLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  boolean readBoolean() {
    return readByte() != 0;
  }

  String readString() {
    return utf8(readVarInt());
  }

  Optional<String> readOptionalString() {
    int lengthPlusOne = readVarInt();
    return lengthPlusOne == 0 ? Optional.empty() : Optional.of(utf8(lengthPlusOne - 1));
  }

  byte[] readByteArray() {
    int length = readVarInt();
    require(length);
    byte[] value = new byte[length];
    System.arraycopy(bytes, position, value, 0, length);
    position += length;
    return value;
  }

  Instant readInstant() {
    long seconds = readSignedVarLong();
    long nanos = readVarLong();
    if (nanos < 0 || nanos > 999_999_999) throw corrupt("nanoseconds out of range: " + nanos);
    return Instant.ofEpochSecond(seconds, nanos);
  }

  /** The bytes not read yet, as UTF-8 (a key's trailing URL). */
  String readRestAsString() {
    return utf8(bytes.length - position);
  }

  private String utf8(int length) {
    require(length);
    String value = new String(bytes, position, length, StandardCharsets.UTF_8);
    position += length;
    return value;
  }

  private void require(int length) {
    if (length < 0 || length > bytes.length - position) {
      throw corrupt("value truncated at byte " + position + " of " + bytes.length);
    }
  }

  private static StoreException corrupt(String reason) {
    return new StoreException("corrupt value in the crawl store: " + reason);
  }
}
