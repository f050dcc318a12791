package org.forager.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * One HTTP/1.1 connection of {@link HttpFetcher}: a connected socket (TLS or not), the bytes read from
 * it and not yet consumed, and what it has carried. Used by one exchange at a time (the pool hands it
 * out once); {@link #close} may come from another thread (a fetch's deadline), and then fails the
 * read or write in progress.
 */
final class Connection {

  private static final int BUFFER_BYTES = 8 * 1024;

  final Route route;
  /** What the exchange reads and writes (TLS over {@link #plain} for https). */
  private final Socket socket;
  /** The TCP socket: closing it ends the connection at once, TLS or not, without a close_notify. */
  private final Socket plain;
  private final InputStream in;
  private final InputStream plainIn;
  private final OutputStream out;
  final byte[] buffer = new byte[BUFFER_BYTES];
  /** The unread bytes are {@code buffer[position, limit)}. */
  int position;
  int limit;
  /** The gate the current exchange's reads go through: left while a read waits for the network. */
  private ResponseGate gate = ResponseGate.NONE;
  /** Requests sent on it before the current one's; bytes read from it in all. */
  long requests;
  long received;
  final long openedNanos;
  long idleSinceNanos;
  /**
   * Whether a request head queued for it ({@link SendBatch}) is not written yet: a response that came
   * before it was written answered no request of ours, and the connection must not carry another.
   */
  volatile boolean headQueued;

  Connection(Route route, Socket socket, Socket plain) throws IOException {
    this.route = route;
    this.socket = socket;
    this.plain = plain;
    this.in = socket.getInputStream();
    this.plainIn = plain == socket ? in : plain.getInputStream();
    this.out = socket.getOutputStream();
    this.openedNanos = System.nanoTime();
  }

  /** The TCP socket, which {@link #close} closes. */
  Socket plain() {
    return plain;
  }

  /** The peer's address (the WARC's {@code WARC-IP-Address}). */
  InetAddress remoteAddress() {
    return socket.getInetAddress();
  }

  /** Sends a request head in one write. */
  void send(byte[] head) throws IOException {
    out.write(head);
    out.flush();
  }

  /**
   * Makes bytes available in the buffer when none are: one read of the socket (the unread bytes moved
   * to the front first). Returns false at the end of the stream.
   */
  boolean fill() throws IOException {
    if (position < limit) return true;
    position = 0;
    limit = 0;
    int n = readSocket(buffer, 0, buffer.length);
    if (n < 0) return false;
    limit = n;
    received += n;
    return true;
  }

  /** Up to {@code length} bytes into {@code into}: buffered ones first; -1 at the end of the stream. */
  int read(byte[] into, int offset, int length) throws IOException {
    if (length == 0) return 0;
    if (position == limit && length >= buffer.length) {
      int n = readSocket(into, offset, length); // a large read goes straight to the caller's array
      if (n > 0) received += n;
      return n;
    }
    if (!fill()) return -1;
    int n = Math.min(length, limit - position);
    System.arraycopy(buffer, position, into, offset, n);
    position += n;
    return n;
  }

  /** Reads of the exchange from now on go through {@code gate} ({@link ResponseGate#NONE}: none). */
  void readThrough(ResponseGate gate) {
    this.gate = gate;
  }

  /**
   * One read of the socket; a read that would wait for the network (no byte ready at either layer)
   * leaves the gate for the time it waits: a server that is slow to answer holds no place there.
   */
  private int readSocket(byte[] into, int offset, int length) throws IOException {
    ResponseGate g = gate;
    if (g == ResponseGate.NONE || hasUnreadBytes()) return in.read(into, offset, length);
    g.leave();
    try {
      return in.read(into, offset, length);
    } finally {
      g.enter();
    }
  }

  /** The next byte, or -1 at the end of the stream. */
  int read() throws IOException {
    return fill() ? buffer[position++] & 0xFF : -1;
  }

  /**
   * Whether bytes nobody asked for are waiting: in the buffer, in the TLS layer or in the kernel (a
   * server's leftovers after a body, which the next request would read as its response). Does not
   * wait; a connection that cannot tell is taken as having some.
   */
  boolean hasUnreadBytes() {
    if (position < limit) return true;
    try {
      return in.available() > 0 || (plainIn != in && plainIn.available() > 0);
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * Whether the connection, idle until now, can no longer carry a request: the peer closed or reset
   * it, or sent bytes nobody asked for. Waits at most a millisecond; close the connection from
   * another thread to end it sooner (a TLS read may have records to answer first).
   */
  boolean stale() {
    if (position < limit || isClosed()) return true;
    try {
      socket.setSoTimeout(1);
      try {
        fill(); // bytes or the end of the stream: either way not reusable
        return true;
      } catch (SocketTimeoutException quiet) {
        return false;
      } finally {
        socket.setSoTimeout(0);
      }
    } catch (IOException e) {
      return true;
    }
  }

  boolean isClosed() {
    return plain.isClosed() || socket.isClosed();
  }

  /** Closes the TCP socket; safe from any thread, any number of times. */
  void close() {
    try {
      plain.close();
    } catch (IOException e) {
      // Closing: nothing left to do about it.
    }
  }
}
