package org.forager.testweb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

/** Compressed bodies the tests' servers send: bombs, deflate streams. */
public final class Compressed {

  private Compressed() {}

  /** {@code size} bytes of zeros, gzip-compressed: a bomb of about a thousandth of its size. */
  public static byte[] gzippedZeros(long size) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] zeros = new byte[1 << 20];
    try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
      for (long written = 0; written < size; written += zeros.length) gz.write(zeros);
    }
    return out.toByteArray();
  }

  /** {@code data} deflated: a zlib stream, or with {@code raw} a bare deflate stream. */
  public static byte[] deflated(byte[] data, boolean raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
    try (DeflaterOutputStream z = new DeflaterOutputStream(out, deflater)) {
      z.write(data);
    } finally {
      deflater.end();
    }
    return out.toByteArray();
  }
}
