package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PagesInHandTest {

  @Test
  void belowTheLimitAFetchStartsAtOnce() {
    PagesInHand pages = new PagesInHand(2);
    pages.awaitRoom();
    pages.fetched();
    pages.awaitRoom();
    pages.fetched();
    assertEquals(2, pages.inHand());
    pages.recorded();
    pages.awaitRoom();
    assertEquals(1, pages.inHand());
  }

  @Test
  void atTheLimitAFetchWaitsForAPageToBeRecorded() throws Exception {
    PagesInHand pages = new PagesInHand(1);
    pages.fetched();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch passed = new CountDownLatch(1);
    Thread waiter = Thread.ofVirtual().start(() -> {
      started.countDown();
      pages.awaitRoom();
      passed.countDown();
    });
    assertTrue(started.await(5, TimeUnit.SECONDS));
    assertFalse(passed.await(200, TimeUnit.MILLISECONDS), "no room while the page is in hand");
    waiter.interrupt(); // not a way out: the wait is for room only
    assertFalse(passed.await(200, TimeUnit.MILLISECONDS), "an interrupt is no room");
    pages.recorded();
    assertTrue(passed.await(5, TimeUnit.SECONDS), "room once the page is recorded");
    waiter.join(5_000);
  }

  @Test
  void theLimitIsPositiveAndScalesWithTheCores() {
    assertThrows(IllegalArgumentException.class, () -> new PagesInHand(0));
    assertEquals(PagesInHand.PER_CORE * Runtime.getRuntime().availableProcessors(),
        PagesInHand.forThisMachine().limit());
  }
}
