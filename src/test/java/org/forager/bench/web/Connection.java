package org.forager.bench.web;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * One accepted connection: its read buffer, the requests read from it and not yet answered (in
 * order: HTTP/1.1 answers pipelined requests in order), and the response being written. Touched
 * only by the server's event loop thread.
 */
final class Connection {

  /** The most bytes of request head (request line and headers) accepted. */
  static final int MAX_HEAD = 8192;
  /** Stop reading while this many requests wait for their responses. */
  static final int MAX_QUEUED = 32;

  /** One request read and not yet answered. */
  static final class Request {
    final Connection connection;
    final int seq;
    final int target;
    final int status;
    final boolean head;
    final boolean close;
    /** When its response may start ({@link System#nanoTime()}). */
    final long due;
    boolean ready;

    Request(Connection connection, int seq, int target, int status, boolean head, boolean close, long due) {
      this.connection = connection;
      this.seq = seq;
      this.target = target;
      this.status = status;
      this.head = head;
      this.close = close;
      this.due = due;
    }
  }

  final int id;
  final int host;
  final SocketChannel channel;
  SelectionKey key;
  /** In write mode between events. */
  final ByteBuffer in = ByteBuffer.allocate(MAX_HEAD);
  final ArrayDeque<Request> queue = new ArrayDeque<>();
  /** The response being written, its buffer (from the pool) and when writing it started. */
  ByteBuffer out;
  byte[] outArray;
  long writeStart;
  boolean closed;
  /** Set once a request said {@code Connection: close} or was bad: read nothing more. */
  boolean closing;

  Connection(int id, int host, SocketChannel channel) {
    this.id = id;
    this.host = host;
    this.channel = channel;
  }
}
