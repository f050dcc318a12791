package org.forager.record;

import static org.forager.record.CrawlLogTest.action;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads logging at once, as a crawl's turns do: a line made outside the file's lock, written by
 * whoever holds it, and a hand-over that covers every thread waiting for one ({@link CrawlLog}'s class
 * comment).
 */
@Timeout(60)
class CrawlLogConcurrencyTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void manyThreadsLeaveEveryLineWholeOnceAndEachThreadsLinesInItsOrder() throws Exception {
    Path file = tmp.resolve("logs/crawl.jsonl");
    int threads = 400;
    int each = 25;
    CountDownLatch start = new CountDownLatch(1);
    try (CrawlLog log = CrawlLog.open(file);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        executor.execute(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            return;
          }
          for (int i = 0; i < each; i++) {
            String url = "http://t" + thread + ".example/" + i;
            if (i % 3 == 2) {
              log.write(action(url));
            } else {
              log.append(action(url)); // as a page's refusals: handed over with its page's line
              if (i % 3 == 1) log.handOver();
            }
          }
          log.handOver();
        });
      }
      start.countDown();
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(threads * each, lines.size());
    Map<String, Integer> lastOfThread = new HashMap<>();
    for (String line : lines) {
      JsonNode node = JSON.readTree(line); // every line one whole object
      String[] parts = node.get("url").asText().substring("http://t".length()).split("\\.example/");
      int i = Integer.parseInt(parts[1]);
      Integer before = lastOfThread.put(parts[0], i);
      assertEquals(before == null ? 0 : before + 1, i, "thread " + parts[0] + "'s lines in its order, once each");
    }
    assertEquals(threads, lastOfThread.size());
  }

  /** In the file or in its tail (staged), as a kill would leave it ({@link LogAsKilled}). */
  @Test
  void aLineIsInTheFileWhenItsHandOverReturnsWhateverOtherThreadsDo() throws Exception {
    Path file = tmp.resolve("logs/crawl.jsonl");
    ConcurrentLinkedQueue<String> missing = new ConcurrentLinkedQueue<>();
    try (CrawlLog log = CrawlLog.open(file);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < 50; t++) {
        int thread = t;
        executor.execute(() -> {
          for (int i = 0; i < 20; i++) {
            String url = "http://t" + thread + ".example/" + i;
            log.write(action(url));
            try {
              if (!LogAsKilled.text(file).contains("\"" + url + "\"")) missing.add(url);
            } catch (RuntimeException e) {
              missing.add(url + ": " + e);
            }
          }
        });
      }
    }
    assertEquals(List.of(), new ArrayList<>(missing), "lines not in the file when write returned");
  }

  @Test
  void anInterruptedWriterWritesItsLineKeepsItsInterruptAndOthersWriteOn() throws Exception {
    Path file = tmp.resolve("logs/crawl.jsonl");
    try (CrawlLog log = CrawlLog.open(file)) {
      boolean[] stillInterrupted = new boolean[1];
      Thread interrupted = Thread.ofVirtual().start(() -> {
        Thread.currentThread().interrupt();
        log.append(action("http://interrupted.example/1"));
        log.write(action("http://interrupted.example/2"));
        stillInterrupted[0] = Thread.currentThread().isInterrupted();
      });
      interrupted.join();
      assertTrue(stillInterrupted[0], "the interrupt is the caller's to see");
      log.write(action("http://after.example/"));
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(3, lines.size());
    assertTrue(lines.get(2).contains("after.example"), "the others write on");
  }
}
