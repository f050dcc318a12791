package org.forager.bench.web;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * The server's record of every request, in order of arrival, in parallel primitive arrays (about
 * 40 bytes a request: 10 million requests take some 400 MB of heap). A request is {@link #open}ed
 * when it has been read, with its arrival time, and {@link #complete}d when its response has been
 * written (or the connection dropped). Times are {@link System#nanoTime()}.
 *
 * <p>Thread-safe: the server's event loop writes, anyone may take a {@link #snapshot()}.
 */
public final class RequestLog {

  /** Status of a request whose response was never completely written (connection lost, server stopped). */
  public static final int ABORTED = 0;

  private int size;
  private int[] host = new int[1024];
  private int[] connection = new int[1024];
  private int[] target = new int[1024];
  private short[] status = new short[1024];
  private long[] arrival = new long[1024];
  private long[] writeStart = new long[1024];
  private long[] writeEnd = new long[1024];

  /**
   * Records a request that has arrived; returns its sequence number. Requests must be opened in
   * order of arrival ({@link Audit} relies on it).
   */
  synchronized int open(int hostIndex, int connectionId, int targetCode, long arrivalNanos) {
    if (size > 0 && arrivalNanos - arrival[size - 1] < 0) {
      throw new IllegalArgumentException("requests must be opened in order of arrival");
    }
    if (size == host.length) grow();
    int i = size++;
    host[i] = hostIndex;
    connection[i] = connectionId;
    target[i] = targetCode;
    status[i] = -1;
    arrival[i] = arrivalNanos;
    return i;
  }

  /** Records the response to request {@code seq}: its status and when writing it started and ended. */
  synchronized void complete(int seq, int statusCode, long writeStartNanos, long writeEndNanos) {
    status[seq] = (short) statusCode;
    writeStart[seq] = writeStartNanos;
    writeEnd[seq] = writeEndNanos;
  }

  /** A frozen copy: every request so far; those still pending look aborted at {@code nowNanos}. */
  public synchronized RequestLog snapshot(long nowNanos) {
    RequestLog copy = new RequestLog();
    copy.size = size;
    copy.host = Arrays.copyOf(host, Math.max(1, size));
    copy.connection = Arrays.copyOf(connection, Math.max(1, size));
    copy.target = Arrays.copyOf(target, Math.max(1, size));
    copy.status = Arrays.copyOf(status, Math.max(1, size));
    copy.arrival = Arrays.copyOf(arrival, Math.max(1, size));
    copy.writeStart = Arrays.copyOf(writeStart, Math.max(1, size));
    copy.writeEnd = Arrays.copyOf(writeEnd, Math.max(1, size));
    for (int i = 0; i < size; i++) {
      if (copy.status[i] < 0) copy.complete(i, ABORTED, nowNanos, nowNanos);
    }
    return copy;
  }

  public synchronized int size() {
    return size;
  }

  public synchronized int host(int i) {
    return host[check(i)];
  }

  public synchronized int connection(int i) {
    return connection[check(i)];
  }

  /** A page number, or a negative {@code Target} code (-1 robots.txt, -2 private, -3 skipped extension, -4 other). */
  public synchronized int target(int i) {
    return target[check(i)];
  }

  /** The HTTP status sent, {@link #ABORTED}, or -1 while pending. */
  public synchronized int status(int i) {
    return status[check(i)];
  }

  public synchronized long arrival(int i) {
    return arrival[check(i)];
  }

  public synchronized long writeStart(int i) {
    return writeStart[check(i)];
  }

  public synchronized long writeEnd(int i) {
    return writeEnd[check(i)];
  }

  /**
   * Writes one CSV line per request, times in ns since {@code originNanos}:
   * {@code seq,host,connection,target,status,arrival_ns,write_start_ns,write_end_ns}.
   */
  public synchronized void writeCsv(Writer out, long originNanos) throws IOException {
    BufferedWriter w = new BufferedWriter(out, 1 << 16);
    w.write("seq,host,connection,target,status,arrival_ns,write_start_ns,write_end_ns\n");
    for (int i = 0; i < size; i++) {
      w.write(i + "," + host[i] + "," + connection[i] + "," + target[i] + "," + status[i] + ","
          + (arrival[i] - originNanos) + "," + (writeStart[i] - originNanos) + ","
          + (writeEnd[i] - originNanos) + "\n");
    }
    w.flush();
  }

  private int check(int i) {
    if (i < 0 || i >= size) throw new IndexOutOfBoundsException(i);
    return i;
  }

  private void grow() {
    int n = host.length * 2;
    host = Arrays.copyOf(host, n);
    connection = Arrays.copyOf(connection, n);
    target = Arrays.copyOf(target, n);
    status = Arrays.copyOf(status, n);
    arrival = Arrays.copyOf(arrival, n);
    writeStart = Arrays.copyOf(writeStart, n);
    writeEnd = Arrays.copyOf(writeEnd, n);
  }
}
