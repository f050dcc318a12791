package org.forager.warc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.forager.fetch.FetchResult;
import org.forager.io.IoFailures;

/**
 * Writes fetches to size-rotated WARC/1.1 files in one directory, each record compressed on its
 * own: one gzip member ({@code .warc.gz}, the default) or one zstd frame ({@code .warc.zst}) per
 * record, see {@link RecordCompression}.
 *
 * <p>Per fetch: a {@code request} record (the request head as sent), then a {@code response}
 * record (status line, headers as received, the body as received after transfer decoding), or for
 * a 304 a {@code revisit} record with the server-not-modified profile and no payload. Both carry
 * WARC-Target-URI, WARC-Date (the fetch start), WARC-IP-Address when known, WARC-Concurrent-To
 * pointing at each other and WARC-Block-Digest; the response also WARC-Payload-Digest and, when the
 * body was cut short, {@code WARC-Truncated} with the reason: {@code length} (a size cap),
 * {@code time} (the fetch deadline), {@code disconnect} (the connection ended early) or
 * {@code unspecified} (the content coding broke off). A received {@code Transfer-Encoding} field is
 * stored as {@code X-Forager-Transfer-Encoding}, because the stored body is no longer transfer-coded
 * (neither chunked nor, should the server have sent it so, gzipped).
 *
 * <p>Files: {@code forager-TIMESTAMP-SERIAL-TOKEN.warc.gz} or {@code .warc.zst} (see
 * {@link WarcFileNames}), created on
 * the first write after {@link #open} or after a rotation, each starting with a {@code warcinfo}
 * record. A file is written as {@code NAME.warc.gz.open} and renamed to {@code NAME.warc.gz} once
 * complete (flushed to disk and closed), so any file without {@code .open} is whole. A file is
 * rotated once it reaches {@code maxFileBytes} after a write; the records of one fetch always
 * stay in one file, so a file may exceed the size by one fetch. The thread whose write filled a file
 * finishes it (flush, rename) outside the lock while the others write into the next one;
 * {@link #close} waits for such a finish.
 *
 * <p>Thread-safe: many threads may call {@link #write} at once. Records are compressed in the
 * calling thread, then the records of one fetch are appended together, contiguous in the file, by
 * whichever thread holds the lock: one that finds it held leaves its records to the holder and waits
 * for them to be written, rather than queuing on the lock. An interrupt already pending when a thread
 * writes is held back until its file I/O is done (it would close the file's channel under every
 * thread's records) and restored after; one that arrives during the I/O still closes it.
 *
 * <p>Errors: a failure to create, write, flush or rename a file (disk full, directory gone) is
 * thrown as an {@link UncheckedIOException} whose message names the file. A failed write leaves
 * the file cut back to its last whole record and in use; if it cannot be cut back, the file is
 * left with its {@code .open} name and the next write starts a new file.
 *
 * <p>Given an index directory, the recorder writes each finished file's CDXJ index there
 * ({@link WarcIndexes}), in the thread that finished the file, outside the lock, from the lines it
 * made as it wrote the records (no pass reads the file back); a failure to write an index is
 * logged, not thrown: the WARC file is whole, and {@link WarcIndexes#ensure} builds the index later.
 */
public final class WarcRecorder implements AutoCloseable {

  /** The rotation size the crawl uses unless configured otherwise: 1 GiB, the usual WARC size. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1L << 30;

  private static final System.Logger LOG = System.getLogger(WarcRecorder.class.getName());

  private final Path dir;
  private final long maxFileBytes;
  private final RecordCodec codec;
  private final RecordBytes recordBytes = new RecordBytes();
  private final String software;
  private final Optional<String> hostname;
  private final Optional<Path> indexDir;
  private final boolean directIo;
  // A lock rather than synchronized: a virtual thread blocked in file I/O under synchronized pins
  // its carrier thread on JDK 21.
  private final ReentrantLock lock = new ReentrantLock();
  /** Fetches whose records wait to be appended by the thread holding the lock. */
  private final ConcurrentLinkedQueue<Append> appends = new ConcurrentLinkedQueue<>();
  /** How many more fetches a thread appends once its own is written, before it hands over. */
  private static final int APPENDS_AFTER_OWN = 64;
  /** Signalled when a full file has been finished outside the lock. */
  private final Condition finished = lock.newCondition();
  /** Full files taken off {@link #current} and not finished yet; guarded by the lock. */
  private int finishing;
  private final WarcFileNames names;
  private Optional<WarcFile> current = Optional.empty();
  /** When {@link #current} was started ({@link System#nanoTime}); guarded by the lock. */
  private long currentStartedNanos;
  /** A file this old is finished at its next write, whatever its size ({@link #maxFileAge}). */
  private volatile long maxFileAgeNanos = Long.MAX_VALUE;
  private boolean closed;

  private WarcRecorder(Path dir, long maxFileBytes, RecordCompression compression, String software,
      Optional<String> hostname, Optional<Path> indexDir, boolean directIo) {
    this.indexDir = indexDir;
    this.directIo = directIo;
    this.codec = compression.codec();
    this.names = new WarcFileNames(compression.format().suffix());
    this.dir = dir;
    this.maxFileBytes = maxFileBytes;
    this.software = software;
    this.hostname = hostname;
  }

  /**
   * A recorder writing into {@code warcDir} (created if missing). No file is created until the
   * first write.
   *
   * @param maxFileBytes rotate once a file reaches this many (compressed) bytes; see
   *     {@link #DEFAULT_MAX_FILE_BYTES}
   * @param software the warcinfo {@code software} field, e.g. {@code Forager/0.1.0}
   * @throws IllegalArgumentException if {@code maxFileBytes} is not positive
   * @throws UncheckedIOException if the directory cannot be created
   */
  public static WarcRecorder open(Path warcDir, long maxFileBytes, String software) {
    return open(warcDir, maxFileBytes, RecordCompression.defaults(), software);
  }

  /**
   * As {@link #open(Path, long, String)}, with the deflate level of the records (0 to 9; 1 is the
   * default: see docs/benchmarks.md for what the levels cost).
   */
  public static WarcRecorder open(Path warcDir, long maxFileBytes, int gzipLevel, String software) {
    return open(warcDir, maxFileBytes, RecordCompression.gzip(gzipLevel), software);
  }

  /**
   * As {@link #open(Path, long, String)}, with the records' compression (format and level; see
   * docs/benchmarks.md for what each costs and docs/warc.md for what reads each).
   */
  public static WarcRecorder open(Path warcDir, long maxFileBytes, RecordCompression compression, String software) {
    return open(warcDir, maxFileBytes, compression, software, Optional.empty(), false);
  }

  /**
   * As {@link #open(Path, long, RecordCompression, String)}, writing the CDXJ index of each
   * finished file into {@code indexDir} (created when first needed; see {@link WarcIndexes}).
   */
  public static WarcRecorder open(Path warcDir, long maxFileBytes, RecordCompression compression, String software,
      Path indexDir) {
    return open(warcDir, maxFileBytes, compression, software, Optional.of(indexDir), false);
  }

  /**
   * As {@link #open(Path, long, RecordCompression, String, Path)}; with {@code directIo}, each file is
   * written with direct I/O where the file system takes it, its last megabyte staged in a mapped
   * {@code .tail} file beside it until written (docs/warc.md); the other factories write through
   * the page cache.
   */
  public static WarcRecorder open(Path warcDir, long maxFileBytes, RecordCompression compression, String software,
      Path indexDir, boolean directIo) {
    return open(warcDir, maxFileBytes, compression, software, Optional.of(indexDir), directIo);
  }

  private static WarcRecorder open(Path warcDir, long maxFileBytes, RecordCompression compression, String software,
      Optional<Path> indexDir, boolean directIo) {
    if (maxFileBytes <= 0) throw new IllegalArgumentException("max WARC file size must be positive: " + maxFileBytes);
    try {
      Files.createDirectories(warcDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create WARC directory " + warcDir + ": " + IoFailures.reason(e, warcDir), e);
    }
    indexDir.ifPresent(IndexLines::removeStale);
    return new WarcRecorder(warcDir, maxFileBytes, compression, software, localHostname(), indexDir, directIo);
  }

  /**
   * Also finishes a file at its first write once it is {@code age} old, however small: a long crawl's
   * captures (a continuous one's on a few small sites never fill a gigabyte) are then indexed, and can
   * be packaged and replayed, within that time. Unset: by size only.
   *
   * @return this recorder
   */
  public WarcRecorder maxFileAge(java.time.Duration age) {
    if (age.isNegative() || age.isZero()) throw new IllegalArgumentException("max WARC file age must be positive: " + age);
    maxFileAgeNanos = age.compareTo(java.time.Duration.ofDays(365 * 100)) > 0 ? Long.MAX_VALUE : age.toNanos();
    return this;
  }

  /**
   * Writes the records of one fetch, contiguously, then rotates the file if it is full.
   *
   * @throws UncheckedIOException naming the file, if it could not be created, written, or (when
   *     full) finished; see the class comment for the state left behind
   * @throws IllegalStateException after {@link #close()}
   */
  public void write(FetchResult.Response response) {
    write(response, BodyDigests.of(response));
  }

  /**
   * As {@link #write(FetchResult.Response)}, with the body's digests the caller computed already
   * (the crawl log wants the same SHA-1: computing it once saves a pass over the body).
   */
  public void write(FetchResult.Response response, BodyDigests digests) {
    List<CaptureRecords.Entry> entries = CaptureRecords.of(response, digests);
    List<WarcFile.Member> members = new ArrayList<>(entries.size());
    Append mine;
    try {
      // Compression and index lines happen here, outside the lock, in the caller's thread.
      for (CaptureRecords.Entry e : entries) {
        members.add(new WarcFile.Member(compress(e.record()), e.cdxj().flatMap(this::cdxjStart)));
      }
      mine = new Append(members);
    } catch (RuntimeException | Error e) {
      members.forEach(m -> m.compressed().close());
      throw e;
    }
    appends.add(mine); // from here the appends' writer owns the members (and gives their buffers back)
    boolean interrupted = false;
    while (!mine.done) {
      if (lock.tryLock()) {
        try {
          uninterrupted(() -> appendWaiting(mine));
        } finally {
          unlock();
        }
      } else {
        // The thread holding the lock appends this fetch, or wakes this one to do it (see unlock).
        LockSupport.park(this);
        interrupted |= Thread.interrupted(); // kept for the caller, but no reason to stop waiting
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    mine.full.ifPresent(this::finishAndIndex); // counted in finishing: close() waits for it
    if (mine.failure instanceof RuntimeException e) throw e;
    if (mine.failure instanceof Error e) throw e;
  }

  /**
   * The records of one fetch waiting to be appended, and what came of it. Written by the thread that
   * appends it before {@link #done}, read by the fetch's own thread after.
   */
  private static final class Append {
    final List<WarcFile.Member> members;
    final Thread owner = Thread.currentThread();
    Throwable failure;
    /** The file this fetch filled: its own thread finishes it, outside the lock. */
    Optional<WarcFile> full = Optional.empty();
    volatile boolean done;

    Append(List<WarcFile.Member> members) {
      this.members = members;
    }
  }

  /**
   * Runs file I/O with the thread's pending interrupt held back until it is done: an interrupt closes
   * a file channel (every fetch's records in that file lost, not only this thread's).
   */
  private static void uninterrupted(Runnable io) {
    boolean interrupted = Thread.interrupted();
    try {
      io.run();
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }

  /**
   * Appends the fetches waiting, in the order they came, each contiguous in the file; under the lock.
   * Whoever holds the lock writes for all: a fetch that finds it held waits for its own append
   * without queuing on the lock, whose queue (hundreds of pages, each with its body and records in
   * memory, woken one at a time behind a thousand runnable threads) filled the heap (issue 15,
   * docs/benchmarks.md, session 33). Stops at most {@link #APPENDS_AFTER_OWN} fetches after
   * {@code own} (every one waiting when null): a thread is not kept writing for others while its own
   * page waits to go on.
   */
  private void appendWaiting(Append own) {
    int afterOwn = 0;
    Append next;
    while ((own == null || !own.done || afterOwn++ < APPENDS_AFTER_OWN) && (next = appends.poll()) != null) {
      try {
        if (closed) throw new IllegalStateException("WARC recorder is closed");
        WarcFile file = current.isPresent() ? current.get() : startFile();
        append(file, next.members);
        if (file.size() >= maxFileBytes || System.nanoTime() - currentStartedNanos >= maxFileAgeNanos) {
          current = Optional.empty();
          finishing++;
          next.full = Optional.of(file);
        }
      } catch (RuntimeException | Error e) {
        // Thrown in the fetch's own thread; an Error here (out of memory) is the fetch's too, though
        // its stack is this thread's.
        next.failure = e;
      } finally {
        try {
          next.members.forEach(m -> m.compressed().close()); // the codec's buffers back, written or not
        } finally {
          next.done = true;
          if (next.owner != Thread.currentThread()) LockSupport.unpark(next.owner);
        }
      }
    }
  }

  /**
   * Releases the lock and, when fetches are waiting, wakes the first one's thread to append them: a
   * fetch that found the lock held relies on this, so every release makes it, on every path.
   */
  private void unlock() {
    lock.unlock();
    Append first = appends.peek();
    if (first != null) LockSupport.unpark(first.owner);
  }

  /**
   * Finishes a full file and writes its index, outside the lock: the other threads go on writing into
   * the next file meanwhile. Its flush to disk (a gigabyte's, at the default size) held the lock
   * once, and every crawling thread waited behind it with its page in memory: the heap filled, and
   * the collector failed to evacuate and compacted it whole (issue 15, session 13).
   */
  private void finishAndIndex(WarcFile file) {
    try {
      uninterrupted(() -> {
        finish(file);
        index(file);
      });
    } finally {
      lock.lock();
      try {
        finishing--;
        finished.signalAll();
      } finally {
        unlock();
      }
    }
  }

  /**
   * Finishes the current file (flushed, closed, renamed without {@code .open}). Later calls do
   * nothing.
   *
   * @throws UncheckedIOException naming the file, if it could not be finished
   */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) return;
      uninterrupted(() -> appendWaiting(null)); // fetches that came before close() are written
      closed = true;
      Optional<WarcFile> file = current;
      current = Optional.empty();
      try {
        uninterrupted(() -> {
          file.ifPresent(WarcRecorder::finish);
          file.ifPresent(this::index);
        });
      } finally {
        // A full file another thread is finishing is finished (or failed) before this returns.
        while (finishing > 0) finished.awaitUninterruptibly();
      }
    } finally {
      unlock();
    }
  }

  private WarcFile startFile() {
    currentStartedNanos = System.nanoTime();
    Instant now = Instant.now();
    String name = names.next(now);
    WarcFile file;
    try {
      file = WarcFile.create(dir, name, indexDir, directIo, maxFileBytes);
    } catch (IOException e) {
      throw failure("cannot create WARC file", dir.resolve(name + WarcFile.OPEN_SUFFIX), e);
    }
    try (Compressed warcinfo = compress(WarcinfoRecord.of(name, software, hostname, now))) {
      append(file, List.of(new WarcFile.Member(warcinfo, Optional.empty())));
    }
    current = Optional.of(file);
    return file;
  }

  private Compressed compress(RecordToWrite record) {
    try (RecordBytes.Serialized serialized = recordBytes.serialize(record)) {
      return codec.compressed(serialized.bytes(), serialized.length());
    }
  }

  /**
   * The start of a record's index line, when this recorder writes indexes. A URL jwarc cannot
   * parse has no line, as when the index is built by reading the file back.
   */
  private Optional<String> cdxjStart(CdxjLines.Fields fields) {
    if (indexDir.isEmpty()) return Optional.empty();
    try {
      return Optional.of(CdxjLines.start(fields));
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "WARC record of {0} left out of its index: {1}", fields.url(), e.toString());
      return Optional.empty();
    }
  }

  private void append(WarcFile file, List<WarcFile.Member> members) {
    try {
      file.append(members);
    } catch (IOException e) {
      if (file.damaged() || file.size() == 0) {
        // Unusable (or without even its warcinfo): the next write starts a new file.
        current = Optional.empty();
        file.abandon();
      }
      throw failure("cannot write WARC file", file.openPath(), e);
    }
  }

  private static WarcFile finish(WarcFile file) {
    try {
      file.finish();
      return file;
    } catch (IOException e) {
      file.abandon();
      throw failure("cannot finish WARC file", file.openPath(), e);
    }
  }

  /**
   * Writes a finished file's CDXJ index ({@link WarcIndexes}) from the lines its records were
   * written with; a failure costs only the index.
   */
  private void index(WarcFile file) {
    try {
      file.writeIndex();
    } catch (UncheckedIOException e) {
      LOG.log(System.Logger.Level.WARNING, "{0}; forager export builds it", e.getMessage());
    }
  }

  private static UncheckedIOException failure(String what, Path file, IOException e) {
    return new UncheckedIOException(what + " " + file + ": " + IoFailures.reason(e, file), e);
  }

  private static Optional<String> localHostname() {
    try {
      return Optional.of(InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
