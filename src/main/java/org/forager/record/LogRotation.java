package org.forager.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.forager.config.CrawlConfig;

/**
 * Finishes parts of a crawl log ({@link CrawlLogFiles} names them) and deletes the expired ones.
 *
 * <p>Each step leaves the log whole if the process dies after it: the live file is renamed to the
 * next part's {@code .jsonl} name (atomic; the lines are all there, uncompressed); the gzip is written
 * to {@code .jsonl.gz.tmp}, forced to disk and renamed to {@code .jsonl.gz}; only then is the
 * {@code .jsonl} deleted. {@link #start} finishes what a killed process left: a {@code .gz.tmp} is
 * deleted and its {@code .jsonl} compressed again, a {@code .jsonl} beside its {@code .gz} deleted
 * ({@link CrawlLog#open} has written the live file's staged lines into it first). Readers never take
 * a {@code .gz.tmp} for a part. A live file is finished with every line in it and its tail deleted.
 *
 * <p>Compression runs on one background thread, one part at a time, so that writers wait only for
 * the rename. A compression that fails (disk full) leaves the {@code .jsonl} part, read as it is and
 * compressed at the next start. Thread-safe; {@link #close} waits for the compressions under way.
 */
final class LogRotation implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LogRotation.class.getName());
  private static final String TMP = ".gz.tmp";

  private final Path live;
  private final Path dir;
  private final CrawlConfig.Log policy;
  private final Clock clock;
  private final ExecutorService gzip = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "forager-crawl-log-gzip");
    t.setDaemon(true); // a killed crawl leaves the .jsonl, finished at the next start
    return t;
  });

  private LogRotation(Path live, CrawlConfig.Log policy, Clock clock) {
    this.live = live;
    this.dir = live.toAbsolutePath().getParent();
    this.policy = policy;
    this.clock = clock;
  }

  /** Finishes the work a killed process left in the log's directory and applies the retention. */
  static LogRotation start(Path live, CrawlConfig.Log policy, Clock clock) throws IOException {
    LogRotation r = new LogRotation(live, policy, clock);
    r.recover();
    return r;
  }

  CrawlConfig.Log policy() {
    return policy;
  }

  private void recover() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().endsWith(TMP)) Files.deleteIfExists(f);
      }
    }
    for (CrawlLogFiles.Part p : CrawlLogFiles.finished(dir)) {
      if (p.gzipped()) continue;
      if (Files.exists(gz(p.file()))) Files.delete(p.file()); // killed between the .gz's rename and this
      else gzip.execute(() -> compress(p.file()));
    }
    gzip.execute(this::expire);
  }

  /**
   * Renames the live file (closed by the caller, every line in it and its tail deleted) to the next
   * part and has it compressed in the background.
   *
   * @throws IOException when the rename fails; the live file is then left as it was
   */
  void finish() throws IOException {
    Instant lastWritten = Files.getLastModifiedTime(live).toInstant();
    Path part = dir.resolve(CrawlLogFiles.name(lastWritten, CrawlLogFiles.nextSequence(dir)));
    Files.move(live, part, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory();
    gzip.execute(() -> {
      compress(part);
      expire();
    });
  }

  private void compress(Path part) {
    Path tmp = part.resolveSibling(part.getFileName() + TMP);
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING);
          InputStream in = Files.newInputStream(part);
          GZIPOutputStream zip = new GZIPOutputStream(Channels.newOutputStream(channel), 1 << 16)) {
        in.transferTo(zip);
        zip.finish();
        channel.force(true); // the whole .gz is on disk before its name says it is finished
      }
      Files.move(tmp, gz(part), StandardCopyOption.ATOMIC_MOVE);
      syncDirectory(); // the rename is on disk before the only other copy goes
      Files.delete(part);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot compress crawl log part " + part + " (kept uncompressed, "
          + "compressed at the next start): " + e.getMessage(), e);
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // deleted at the next start
      }
    }
  }

  /** Deletes the compressed parts whose last line is older than {@code keep}. */
  private void expire() {
    if (policy.keep().isEmpty()) return;
    Instant oldest = clock.instant().minus(policy.keep().get());
    try {
      Optional<CrawlLogFiles.Expired> before;
      try {
        before = CrawlLogFiles.expiredIn(dir);
      } catch (IOException damaged) {
        before = Optional.empty(); // written afresh below from what is deleted now
      }
      long parts = before.map(CrawlLogFiles.Expired::parts).orElse(0L);
      long lastSequence = before.map(CrawlLogFiles.Expired::lastSequence).orElse(0L);
      Instant lastLine = before.map(CrawlLogFiles.Expired::lastLine).orElse(Instant.EPOCH);
      List<CrawlLogFiles.Part> expired = new ArrayList<>();
      for (CrawlLogFiles.Part p : CrawlLogFiles.finished(dir)) {
        if (p.gzipped() && p.finished().isBefore(oldest)) {
          expired.add(p);
          parts++;
          lastSequence = Math.max(lastSequence, p.sequence());
          if (p.finished().isAfter(lastLine)) lastLine = p.finished();
        }
      }
      if (expired.isEmpty()) return;
      // Said beside the parts left, before any goes, so that the audit always reads them knowing the
      // log's start is gone (a crash in between leaves a note a part ahead: a page the more unjudged).
      CrawlLogFiles.recordExpired(dir, new CrawlLogFiles.Expired(parts, lastSequence, lastLine));
      for (CrawlLogFiles.Part p : expired) Files.deleteIfExists(p.file());
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete expired crawl log parts in " + dir + ": " + e.getMessage());
    }
  }

  private static Path gz(Path part) {
    return part.resolveSibling(part.getFileName() + ".gz");
  }

  /** Makes the directory's renames durable (Linux allows fsync on a directory; elsewhere skipped). */
  private void syncDirectory() {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Not supported on this platform: the renames are as durable as the file system makes them.
    }
  }

  /** Waits for the compressions under way (a part left by a kill is finished at the next start). */
  @Override
  public void close() {
    gzip.shutdown();
    try {
      if (!gzip.awaitTermination(10, TimeUnit.MINUTES)) {
        LOG.log(System.Logger.Level.WARNING,
            "crawl log compression still running at close; finished at the next start");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
