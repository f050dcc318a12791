package org.forager.record;

import static org.forager.record.CrawlLogTest.action;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.forager.config.CrawlConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link CrawlLog}: failures inside a drain, where one thread writes the lines and hand-overs of others. */
@Timeout(120)
class CrawlLogDrainFailureTest {

  @TempDir Path tmp;

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r);
    t.setDaemon(true); // a stranded one must not keep the test JVM alive
    t.start();
    return t;
  }

  /**
   * An unchecked Throwable out of the drain (here: rotation meets a part name it cannot parse; in a
   * crawl: OutOfMemoryError allocating the next Sink's 64 KiB buffer, an UncheckedIOException from
   * the directory listing) leaves the hand-overs the drainer had already polled never done: their
   * threads park forever, and nothing records the failure.
   *
   * <p>Made deterministic with a FIFO as the live file: thread A's append blocks inside its drain
   * (its line is bigger than the pipe) while holding the lock, thread B's write queues behind it.
   */
  @Test
  void anUncheckedFailureInTheDrainDoesNotStrandTheOtherThreadsHandOvers() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mkfifo")), "needs mkfifo");
    Path dir = Files.createDirectories(tmp.resolve("logs"));
    Path file = dir.resolve("crawl.jsonl");
    assertEquals(0, new ProcessBuilder("/usr/bin/mkfifo", file.toString()).start().waitFor());
    try (RandomAccessFile pipe = new RandomAccessFile(file.toFile(), "rw")) { // O_RDWR: opening never blocks
      CrawlLog log = CrawlLog.open(file, new CrawlConfig.Log(1, false, Optional.empty()),
          Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
      // Left by someone after the log opened; the next rotation's nextSequence cannot parse it.
      Files.createFile(dir.resolve("crawl-20261399T000000Z-1.jsonl"));

      AtomicReference<Throwable> aThrew = new AtomicReference<>();
      Thread a = daemon(() -> {
        try {
          log.append(action("http://a.example/" + "x".repeat(1 << 20))); // 1 MiB: blocks in the pipe
        } catch (Throwable t) {
          aThrew.set(t);
        }
      });
      assertTrue(pipe.read() >= 0, "A is writing its line, holding the lock");

      AtomicReference<Throwable> bThrew = new AtomicReference<>();
      Thread b = daemon(() -> {
        try {
          log.write(action("http://b.example/"));
        } catch (Throwable t) {
          bThrew.set(t);
        }
      });
      while (!(b.getState() == Thread.State.WAITING && LockSupport.getBlocker(b) == log)) Thread.onSpinWait();
      // B's line and hand-over are queued behind A's drain. Let A's line through.
      byte[] buffer = new byte[1 << 16];
      boolean newline = false;
      while (!newline) {
        int n = pipe.read(buffer);
        for (int i = 0; i < n; i++) newline |= buffer[i] == '\n';
      }
      a.join();
      assertTrue(aThrew.get() != null, "the rotation failed in A's drain");

      b.join(Duration.ofSeconds(20));
      assertFalse(b.isAlive(), "B's write never returned: its hand-over was polled by A's drain and never done "
          + "(state " + b.getState() + ", A threw " + aThrew.get() + ")");
      UncheckedIOException e = assertInstanceOf(UncheckedIOException.class, bThrew.get(),
          "B learns its line may not be in the log");
      assertTrue(e.getMessage().startsWith("cannot write crawl log " + file), e.getMessage());
      assertThrows(UncheckedIOException.class, () -> log.write(action("http://c.example/")),
          "and so does every later write");
      try {
        log.close();
      } catch (RuntimeException ignored) {
        // the file is past saving
      }
    }
  }
}
