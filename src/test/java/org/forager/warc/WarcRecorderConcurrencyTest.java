package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.forager.warc.WarcFiles.Read;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.Warcinfo;

/** Many threads writing through one recorder while files rotate. */
class WarcRecorderConcurrencyTest {

  private static final int THREADS = 8;
  private static final int PER_THREAD = 60;

  @TempDir Path dir;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void concurrentWritesStayWholeAndPairsStayContiguous() throws Exception {
    writeConcurrently(Executors.newFixedThreadPool(THREADS), THREADS, PER_THREAD, false);
    assertWholeAndContiguous(THREADS * PER_THREAD);
  }

  /**
   * As a crawl writes: hundreds of virtual threads at once, so that most find the lock held and wait
   * for the thread holding it to append their records (WarcRecorder's combined appends).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void hundredsOfVirtualThreadsWritingAtOnceLoseNothing() throws Exception {
    writeConcurrently(Executors.newVirtualThreadPerTaskExecutor(), 400, 5, false);
    assertWholeAndContiguous(400 * 5);
  }

  /** An interrupted thread's write is still written, and the thread still interrupted after it. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void interruptedWritersStillWriteAndStayInterrupted() throws Exception {
    writeConcurrently(Executors.newVirtualThreadPerTaskExecutor(), 100, 5, true);
    assertWholeAndContiguous(100 * 5);
  }

  /**
   * close() while a hundred virtual threads write: each write either returns, its fetch then in a
   * whole file, or fails as closed; none hangs, and no file is left open.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void closeWhileManyThreadsWriteLeavesEveryReturnedWriteInAWholeFile() throws Exception {
    Set<String> returned = ConcurrentHashMap.newKeySet();
    CountDownLatch someWritten = new CountDownLatch(200);
    WarcRecorder recorder = WarcRecorder.open(dir, 32 * 1024, "Forager/test");
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < 100; t++) {
        int thread = t;
        pool.submit(() -> {
          for (int i = 0; i < 20; i++) {
            String url = "http://example.org/t" + thread + "/p" + i;
            try {
              recorder.write(Responses.plain(url, (url + " ").repeat(20 + i)));
            } catch (IllegalStateException closed) {
              return null;
            }
            returned.add(url);
            someWritten.countDown();
          }
          return null;
        });
      }
      someWritten.await();
      recorder.close();
    }
    assertEquals(List.of(), WarcFiles.list(dir, ".open"));
    Set<String> inFiles = assertWholeAndContiguous(-1);
    assertTrue(inFiles.containsAll(returned), "every write that returned is in a file");
    assertTrue(returned.size() >= 200 && returned.size() < 100 * 20,
        "close() came while threads wrote: " + returned.size() + " written");
  }

  /**
   * {@code threads} tasks on {@code pool}, released together, each writing {@code perThread} pages;
   * with {@code interrupted}, each task interrupts itself first and must find itself still
   * interrupted after every write.
   */
  private void writeConcurrently(ExecutorService pool, int threads, int perThread, boolean interrupted)
      throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    try (WarcRecorder recorder = WarcRecorder.open(dir, 32 * 1024, "Forager/test")) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          if (interrupted) Thread.currentThread().interrupt();
          for (int i = 0; i < perThread; i++) {
            String url = "http://example.org/t" + thread + "/p" + i;
            recorder.write(Responses.plain(url, (url + " ").repeat(20 + i)));
            if (interrupted) assertTrue(Thread.currentThread().isInterrupted(), "still interrupted after a write");
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) f.get(50, TimeUnit.SECONDS);
    } finally {
      pool.shutdown();
    }
  }

  /**
   * Every file whole, warcinfo first, each fetch's pair contiguous, each fetch once, and
   * {@code pages} of them (any number when negative); returns their URLs.
   */
  private Set<String> assertWholeAndContiguous(int pages) throws Exception {
    List<Path> files = WarcFiles.list(dir, ".warc.gz");
    assertTrue(files.size() > 1, "rotation happened while threads wrote: " + files);
    assertEquals(List.of(), WarcFiles.list(dir, ".open"));
    Set<String> seen = new HashSet<>();
    for (Path file : files) {
      List<Read> records = WarcFiles.read(file);
      assertTrue(records.get(0).record() instanceof Warcinfo, file + " starts with warcinfo");
      assertEquals(1, records.size() % 2, file + ": warcinfo then whole pairs");
      for (int i = 1; i < records.size(); i += 2) {
        WarcCaptureRecord request = (WarcCaptureRecord) records.get(i).record();
        WarcCaptureRecord response = (WarcCaptureRecord) records.get(i + 1).record();
        assertEquals("request", request.type());
        assertEquals("response", response.type());
        assertEquals(List.of(request.id()), response.concurrentTo());
        assertEquals(List.of(response.id()), request.concurrentTo());
        assertEquals(request.target(), response.target());
        String body = new String(records.get(i + 1).payload(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(body.startsWith(response.target() + " "), "body belongs to its own URL");
        assertTrue(seen.add(response.target()), "written once: " + response.target());
      }
    }
    if (pages >= 0) assertEquals(pages, seen.size());
    return seen;
  }

  /**
   * A write that fills its file finishes it after releasing the lock; close() must still return only
   * once that file is finished. Every write here fills its file (a size of one byte), and close() runs
   * while the writer may be anywhere in its write: no round may leave an .open file behind it.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void closeWaitsForAFileAnotherThreadIsFinishing() throws Exception {
    for (int round = 0; round < 100; round++) {
      Path roundDir = dir.resolve("round-" + round);
      WarcRecorder recorder = WarcRecorder.open(roundDir, 1, RecordCompression.gzip(1), "Forager/test");
      CountDownLatch started = new CountDownLatch(1);
      Thread writer = Thread.ofPlatform().start(() -> {
        started.countDown();
        try {
          recorder.write(Responses.plain("http://example.org/" + Thread.currentThread().threadId(), "a page"));
        } catch (IllegalStateException closedFirst) {
          // close() won the race: nothing written, nothing to finish
        }
      });
      started.await();
      recorder.close();
      assertEquals(List.of(), WarcFiles.list(roundDir, ".open"), "round " + round + ": close() returned first");
      writer.join();
    }
  }
}
