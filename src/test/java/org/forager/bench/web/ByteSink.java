package org.forager.bench.web;

import java.nio.charset.StandardCharsets;

/** Appends bytes to an array the caller owns; no bounds growth, no allocation. Not thread-safe. */
final class ByteSink {

  final byte[] buf;
  int pos;

  ByteSink(byte[] buf, int pos) {
    this.buf = buf;
    this.pos = pos;
  }

  ByteSink put(byte[] bytes) {
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
    return this;
  }

  ByteSink put(byte b) {
    buf[pos++] = b;
    return this;
  }

  /** A non-negative int in decimal. */
  ByteSink putInt(int value) {
    int end = pos + digits(value);
    int at = end;
    do {
      buf[--at] = (byte) ('0' + value % 10);
      value /= 10;
    } while (value > 0);
    pos = end;
    return this;
  }

  static int digits(int value) {
    int n = 1;
    while (value >= 10) {
      value /= 10;
      n++;
    }
    return n;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
