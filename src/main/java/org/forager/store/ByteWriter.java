package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * Appends primitives to a growable byte array: the write side of the store's binary encoding.
 * Integers are unsigned LEB128 varints (zigzag for signed values), strings are a varint length
 * then UTF-8, optional strings are a varint of length + 1 (0 = empty). Not thread-safe.
 */
final class ByteWriter {

  private byte[] buffer;
  private int size;
  /** Whether {@link #toByteArray} gave the buffer itself away: it must never be written again. */
  private boolean handedOver;

  ByteWriter(int initialCapacity) {
    buffer = new byte[Math.max(16, initialCapacity)];
  }

  ByteWriter writeByte(int b) {
    ensure(1);
    buffer[size++] = (byte) b;
    return this;
  }

  ByteWriter writeBytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, size, bytes.length);
    size += bytes.length;
    return this;
  }

  /** Fixed eight bytes, big-endian: byte order equals numeric order for unsigned values. */
  ByteWriter writeLongBigEndian(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) buffer[size++] = (byte) (value >>> shift);
    return this;
  }

  ByteWriter writeShortBigEndian(int value) {
    ensure(2);
    buffer[size++] = (byte) (value >>> 8);
    buffer[size++] = (byte) value;
    return this;
  }

  ByteWriter writeVarLong(long value) {
    ensure(10);
    while ((value & ~0x7FL) != 0) {
      buffer[size++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buffer[size++] = (byte) value;
    return this;
  }

  ByteWriter writeSignedVarLong(long value) {
    return writeVarLong((value << 1) ^ (value >> 63));
  }

  ByteWriter writeBoolean(boolean value) {
    return writeByte(value ? 1 : 0);
  }

  ByteWriter writeString(String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    writeVarLong(utf8.length);
    return writeBytes(utf8);
  }

  ByteWriter writeOptionalString(Optional<String> value) {
    if (value.isEmpty()) return writeVarLong(0);
    byte[] utf8 = value.get().getBytes(StandardCharsets.UTF_8);
    writeVarLong(utf8.length + 1L);
    return writeBytes(utf8);
  }

  ByteWriter writeByteArray(byte[] value) {
    writeVarLong(value.length);
    return writeBytes(value);
  }

  /** Full precision: seconds (zigzag varint) and nanoseconds (varint). */
  ByteWriter writeInstant(Instant value) {
    writeSignedVarLong(value.getEpochSecond());
    return writeVarLong(value.getNano());
  }

  /**
   * The bytes written. A writer made with its exact size hands over its buffer, not a copy (the due
   * key, written for every URL a page finds or moves, was two arrays: a tenth of what the store
   * allocates); a later write goes to a new buffer, so the array returned is never written again.
   */
  byte[] toByteArray() {
    if (size == buffer.length) {
      handedOver = true;
      return buffer;
    }
    return Arrays.copyOf(buffer, size);
  }

  /** How many bytes have been written. */
  int size() {
    return size;
  }

  /** A copy of the bytes written, whatever their number. */
  byte[] copy() {
    return Arrays.copyOf(buffer, size);
  }

  /**
   * Forgets the bytes written, to write others in the same buffer (a writer used again and again by
   * one thread allocates nothing once its buffer has grown); a buffer handed over by {@link
   * #toByteArray}, or grown past {@code keepAtMost} bytes, is replaced by a new one of
   * {@code initialCapacity}.
   */
  ByteWriter reset(int initialCapacity, int keepAtMost) {
    if (handedOver || buffer.length > keepAtMost) {
      buffer = new byte[Math.max(16, initialCapacity)];
      handedOver = false;
    }
    size = 0;
    return this;
  }

  private void ensure(int more) {
    if (size + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
      handedOver = false;
    }
  }
}
