package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.forager.fetch.BodyReader.Body;
import org.forager.fetch.FetchResult.Truncation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BodyMemory}: the response bodies of the turns together stay within a bound, whatever lengths
 * hostile servers announce or send; the usual page neither waits nor counts.
 */
@Timeout(30)
class BodyMemoryTest {

  private static final long LATER = System.nanoTime() + 60_000_000_000L;
  private static final int MIB = 1 << 20;

  private final BodyReader reader = new BodyReader(4 * MIB, 1000);

  @Test
  void aLeaseWaitsWhileOthersHoldTheRestAndGoesOnWhenTheyGiveItBack() throws Exception {
    BodyMemory memory = new BodyMemory(100);
    BodyMemory.Lease first = memory.lease();
    assertTrue(first.reserve(80, LATER));
    try (BodyMemory.Lease second = memory.lease()) {
      assertFalse(second.reserve(30, System.nanoTime() + 20_000_000L), "does not fit by its deadline");
      CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
        try {
          return second.reserve(30, LATER);
        } catch (java.io.InterruptedIOException e) {
          throw new AssertionError(e);
        }
      });
      while (memory.waiting() == 0) Thread.onSpinWait(); // it waits for the first's bytes
      assertFalse(waited.isDone());
      first.close();
      assertTrue(waited.get(10, TimeUnit.SECONDS), "given the bytes once they were back");
      assertEquals(30, memory.used());
    }
    assertEquals(0, memory.used(), "every lease closed: nothing held");
  }

  @Test
  void oneBodyLargerThanTheWholeMemoryGetsItWhileNobodyElseHoldsAny() throws Exception {
    BodyMemory memory = new BodyMemory(100);
    try (BodyMemory.Lease lease = memory.lease()) {
      assertTrue(lease.reserve(500, System.nanoTime()));
      assertTrue(lease.reserve(500, System.nanoTime()), "its own bytes never keep it waiting");
      assertEquals(1000, memory.used());
    }
    assertEquals(0, memory.used());
  }

  @Test
  void anAnnouncedLengthHoldsNothingTheBodyDoesNotBringAndAUsualPageCountsNothing() throws Exception {
    BodyMemory memory = new BodyMemory(64 * MIB);
    try (BodyMemory.Lease lease = memory.lease()) {
      Body lie = reader.read(new ByteArrayInputStream(new byte[10]), List.of(), LATER, 2 * MIB);
      assertEquals(10, lie.raw().length);
      Body page = reader.read(new ByteArrayInputStream(new byte[30_000]), List.of(), LATER, 30_000);
      assertTrue(page.complete());
      assertEquals(0, lease.held(), "a lie and a usual page: no reservation");
      Body large = reader.read(new ByteArrayInputStream(new byte[MIB]), List.of(), LATER, MIB);
      assertEquals(MIB, large.raw().length);
      assertTrue(lease.held() >= MIB - BodyMemory.FREE_BYTES, "a large body reserves what it grew by: " + lease.held());
    }
    assertEquals(0, memory.used());
  }

  /**
   * A body that ends at its announced length is kept in the buffer it was read into: a reservation made
   * for a last read that brings nothing once grew it and copied it twice a page (4 % of a crawl's CPU).
   */
  @Test
  void aBodyOfItsAnnouncedLengthIsNeverGrownNorCopied() throws Exception {
    try (BodyMemory.Lease lease = new BodyMemory(MIB).lease()) {
      RawCapture drained = new RawCapture(new ByteArrayInputStream(new byte[30_000]), 4 * MIB, 30_000, lease, LATER);
      assertTrue(drained.drain(LATER));
      assertTrue(drained.bytes() == drained.bytes(), "the buffer itself: never grown");
      RawCapture streamed = new RawCapture(new ByteArrayInputStream(new byte[30_000]), 4 * MIB, 30_000, lease, LATER);
      byte[] chunk = new byte[512];
      while (streamed.read(chunk, 0, chunk.length) >= 0) {
        // as a decoder reads it
      }
      assertTrue(streamed.bytes() == streamed.bytes(), "read through by a decoder: never grown either");
      assertEquals(30_000, streamed.bytes().length);
    }
  }

  @Test
  void aBodyWhoseMemoryDoesNotComeByItsDeadlineEndsThereAsAtTheDeadline() throws Exception {
    BodyMemory memory = new BodyMemory(MIB);
    CompletableFuture<Void> holding = new CompletableFuture<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread other = Thread.ofVirtual().start(() -> {
      try (BodyMemory.Lease lease = memory.lease()) {
        lease.reserve(MIB - 1000, LATER);
        holding.complete(null);
        done.get();
      } catch (Exception e) {
        holding.completeExceptionally(e);
      }
    });
    holding.get(10, TimeUnit.SECONDS);
    try (BodyMemory.Lease lease = memory.lease()) {
      long soon = System.nanoTime() + 200_000_000L;
      Body plain = reader.read(new ByteArrayInputStream(new byte[2 * MIB]), List.of(), soon, 2 * MIB);
      assertEquals(Optional.of(Truncation.DEADLINE), plain.truncation());
      assertEquals(BodyMemory.FREE_BYTES, plain.raw().length, "what the free bytes held");

      ByteArrayOutputStream gz = new ByteArrayOutputStream();
      try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
        out.write(new byte[2 * MIB]); // a bomb: a few KB on the wire
      }
      Body bomb = reader.read(new ByteArrayInputStream(gz.toByteArray()), List.of("gzip"),
          System.nanoTime() + 200_000_000L, gz.size());
      assertEquals(Optional.of(Truncation.DEADLINE), bomb.truncation());
      assertTrue(bomb.decoded().length <= BodyMemory.FREE_BYTES + 8192, "decoded " + bomb.decoded().length);
    } finally {
      done.complete(null);
      other.join();
    }
    assertEquals(0, memory.used());
  }

  /** A page of 10,000 links of about 1,950 chars under a 1,900-char base: 19.5 M chars resolved. */
  private static byte[] linkHeavyPage() {
    StringBuilder html = new StringBuilder("<base href='/" + "c".repeat(1_900) + "/'>");
    for (int k = 0; k < 10_000; k++) html.append("<a href=").append(k).append('>');
    return html.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static List<String> linksOf(byte[] page) {
    return extracted(page).links();
  }

  private static org.forager.extract.ExtractedPage extracted(byte[] page) {
    return new org.forager.extract.HtmlExtractor("ForagerBot")
        .extract("http://example.org/", page, Optional.empty(), List.of(), List.of());
  }

  @Test
  void aPagesLinksAreHeldOnItsTurnsMemoryAndWaitForRoomThere() throws Exception {
    BodyMemory memory = new BodyMemory(6 * MIB);
    CompletableFuture<Void> holding = new CompletableFuture<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread other = Thread.ofVirtual().start(() -> {
      try (BodyMemory.Lease lease = memory.lease()) {
        lease.reserve(5 * MIB, LATER); // another turn's large body
        holding.complete(null);
        done.get();
      } catch (Exception e) {
        holding.completeExceptionally(e);
      }
    });
    holding.get(10, TimeUnit.SECONDS);
    CompletableFuture<List<String>> links = CompletableFuture.supplyAsync(() -> {
      try (BodyMemory.Lease lease = memory.lease()) {
        List<String> kept = linksOf(linkHeavyPage());
        // HtmlExtractor's costs: 320 bytes a link and 4 a char, past 256 KiB free.
        long heap = 320L * kept.size() + 4L * kept.stream().mapToLong(String::length).sum();
        assertTrue(lease.held() >= heap - 256 * 1024, "the links kept are held: " + lease.held() + " of " + heap);
        return kept;
      }
    }, Thread.ofVirtual()::start);
    while (memory.waiting() == 0) Thread.onSpinWait(); // past its free chars, it waits for the other's bytes
    assertFalse(links.isDone());
    done.complete(null);
    other.join();
    List<String> kept = links.get(10, TimeUnit.SECONDS);
    assertEquals(linksOf(linkHeavyPage()), kept, "given the room, the page keeps its whole budget of links");
    assertEquals(0, memory.used());
  }

  @Test
  void aPageWhoseLinksFindNoRoomInTimeKeepsThoseItHad() throws Exception {
    BodyMemory memory = new BodyMemory(2 * MIB, java.time.Duration.ZERO);
    try (BodyMemory.Lease other = memory.lease()) {
      assertTrue(other.reserve(2 * MIB, LATER)); // every byte held by another turn
      var page = CompletableFuture.supplyAsync(() -> {
        try (BodyMemory.Lease lease = memory.lease()) {
          return extracted(linkHeavyPage());
        }
      }, Thread.ofVirtual()::start).get(10, TimeUnit.SECONDS);
      assertEquals(Optional.of(org.forager.extract.ExtractedPage.LinksCut.MEMORY), page.linksCut());
      List<String> kept = page.links();
      long heap = 320L * kept.size() + 4L * kept.stream().mapToLong(String::length).sum();
      assertTrue(!kept.isEmpty() && heap <= 256 * 1024, "the free bytes' worth, no more: " + heap);
      assertEquals(linksOf(linkHeavyPage()).subList(0, kept.size()), kept, "the first ones, in order");
    }
    assertEquals(0, memory.used());
  }
}
