package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The libdeflate engine's gzip members: whole members that the JDK's gzip reader inflates back to
 * the record, framed as zlib's are, at any size and from many threads at once. Skipped, with the
 * reason, where the system has no libdeflate (.ci/run installs it).
 */
@Timeout(60)
class LibDeflateGzipMembersTest {

  @BeforeAll
  static void needsLibdeflate() {
    assumeTrue(LibDeflate.unavailable().isEmpty(), () -> "skipped: " + LibDeflate.unavailable().get());
  }

  private static byte[] html(int bytes, long seed) {
    Random random = new Random(seed);
    String[] words = {"<p>", "crawler ", "polite ", "<a href=\"/page/", "\">link</a> ", "archive ", "web ", "\n"};
    StringBuilder page = new StringBuilder(bytes + 32);
    while (page.length() < bytes) page.append(words[random.nextInt(words.length)]).append(random.nextInt(100));
    return page.substring(0, bytes).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aMemberInflatesBackToTheRecordAtEverySize() throws IOException {
    LibDeflateGzipMembers codec = new LibDeflateGzipMembers(1);
    // Empty, tiny, a page, and past the kept buffers' size (the slot's buffers grow, then are dropped).
    for (int size : new int[] {0, 1, 30_000, 70_000, 5 << 20, 30_000}) {
      byte[] record = html(size, size);
      byte[] member = codec.compress(record);
      assertArrayEquals(record, Members.inflate(member), "size " + size);
    }
  }

  @Test
  void itsFramingIsZlibsAndItsStreamNoLarger() throws IOException {
    byte[] record = html(30_000, 7);
    byte[] fast = new LibDeflateGzipMembers(1).compress(record);
    byte[] zlib = new GzipMembers(1).compress(record);
    for (int i = 0; i < GzipMembers.HEADER_LENGTH; i++) assertEquals(zlib[i], fast[i], "header byte " + i);
    for (int i = 1; i <= 8; i++) assertEquals(zlib[zlib.length - i], fast[fast.length - i], "trailer byte -" + i);
    assertTrue(fast.length <= zlib.length, fast.length + " > " + zlib.length);
  }

  @Test
  void threadsCompressingAtOnceEachGetTheirOwnRecordBack() throws Exception {
    LibDeflateGzipMembers codec = new LibDeflateGzipMembers(1);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        done.add(threads.submit(() -> {
          for (int i = 0; i < 200; i++) {
            byte[] record = html(1_000 + (int) (seed * 997 + i * 131) % 60_000, seed * 1_000 + i);
            assertArrayEquals(record, Members.inflate(codec.compress(record)));
          }
          return null;
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void libdeflateDeflatesTheLevelsIsalDoesNotHave() {
    // Above level 3 always; at 1 to 3 only where ISA-L is missing (IsalGzipMembersTest has the rest).
    assertEquals(RecordCompression.GzipEngine.LIBDEFLATE, RecordCompression.gzip(6).effectiveEngine());
    assertTrue(RecordCompression.gzip(6).codec() instanceof LibDeflateGzipMembers);
    if (RecordCompression.isalUnavailable().isPresent()) {
      assertTrue(RecordCompression.defaults().codec() instanceof LibDeflateGzipMembers);
    }
    assertTrue(RecordCompression.gzip(1, RecordCompression.GzipEngine.LIBDEFLATE).codec()
        instanceof LibDeflateGzipMembers);
    assertTrue(RecordCompression.gzip(1, RecordCompression.GzipEngine.ZLIB).codec() instanceof GzipMembers);
  }
}
