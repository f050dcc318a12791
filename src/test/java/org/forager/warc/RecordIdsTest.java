package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** WARC-Record-IDs taken by many threads at once, across many blocks of random bytes. */
@Timeout(60)
class RecordIdsTest {

  @Test
  void idsTakenByManyThreadsAtOnceAreAllDistinctVersionFourUuids() throws Exception {
    RecordIds ids = new RecordIds();
    Set<String> seen = ConcurrentHashMap.newKeySet();
    int threads = 200;
    int each = 1_000; // 200,000 IDs: 781 blocks, most of them used up while other threads take IDs
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < threads; t++) {
        executor.execute(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            return;
          }
          for (int i = 0; i < each; i++) seen.add(ids.next());
        });
      }
      start.countDown();
    }
    assertEquals(threads * each, seen.size(), "no ID twice");
    for (String id : seen) {
      assertTrue(id.startsWith("<urn:uuid:") && id.endsWith(">"), id);
      UUID uuid = UUID.fromString(id.substring("<urn:uuid:".length(), id.length() - 1));
      assertEquals(4, uuid.version(), id);
      assertEquals(2, uuid.variant(), id);
    }
  }
}
