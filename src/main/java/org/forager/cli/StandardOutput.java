package org.forager.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output for a command that streams much to it ({@code forager export}), with its write
 * errors: {@link System#out} keeps them to itself, so a closed pipe ({@code forager export | head}) or
 * a full disk went on exporting the whole store into nothing.
 *
 * <p>In the {@code forager} process ({@link Main#main}) the stream is file descriptor 1 itself, whose
 * failures say why ("Broken pipe", "No space left on device"); run in-process ({@link Main#run}, tests
 * and embedding) it is whatever {@code System.out} is then, a failure read from its error flag.
 */
final class StandardOutput {

  /** Set by {@link Main#main}: file descriptor 1 is this process's own to write. */
  private static volatile boolean processOwned;

  private StandardOutput() {}

  static void ownedByProcess() {
    processOwned = true;
  }

  /** The stream to write to; the caller flushes it, and does not close it. */
  static OutputStream open() {
    PrintStream out = System.out;
    out.flush();
    return processOwned ? new FileOutputStream(FileDescriptor.out) : new Checked(out);
  }

  /** Whether {@code failure}, met writing to standard output, means its reader went away. */
  static boolean readerGone(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      // The system's words for EPIPE, as the JDK reports a failed write to fd 1.
      if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains("Broken pipe")) return true;
    }
    return false;
  }

  /** A PrintStream whose error flag, read after each write, becomes an exception that stops the writer. */
  private static final class Checked extends OutputStream {
    private final PrintStream out;

    Checked(PrintStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      check();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      check();
    }

    @Override
    public void flush() throws IOException {
      check();
    }

    private void check() throws IOException {
      if (out.checkError()) throw new IOException("the stream reports a write error");
    }
  }
}
