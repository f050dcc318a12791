package org.forager.record;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Lines through a 64 KiB buffer, handed to the operating system with one {@code write(2)} a hand-over
 * (or when the buffer fills): where the file system takes no staged tail ({@link StagedLogWrites}).
 */
final class BufferedLogWrites implements LogWrites {

  private final Counting file;
  private final OutputStream out;

  BufferedLogWrites(Path path) throws IOException {
    OutputStream raw = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    file = new Counting(raw, Files.size(path));
    out = new BufferedOutputStream(file, 1 << 16);
  }

  /** Counts the bytes the file holds, so that rotation needs no system call per line. */
  private static final class Counting extends FilterOutputStream {
    long bytes;

    Counting(OutputStream file, long bytes) {
      super(file);
      this.bytes = bytes;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      bytes += len;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      bytes++;
    }
  }

  @Override
  public void write(byte[] line) throws IOException {
    out.write(line);
  }

  @Override
  public void handOver() throws IOException {
    out.flush();
  }

  @Override
  public long size() {
    return file.bytes;
  }

  @Override
  public boolean behind() {
    return false;
  }

  @Override
  public void flush() {
    // Every line handed over is in the file already.
  }

  @Override
  public void finish() throws IOException {
    out.close();
  }

  @Override
  public void abandon() {
    // The buffer holds what could not be written; writing it now could land after a torn line.
    try {
      file.close();
    } catch (IOException e) {
      // Nothing more is written to it either way.
    }
  }
}
