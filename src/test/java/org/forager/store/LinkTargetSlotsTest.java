package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The link table sizes its slots to the entries it is given (issue 15): small entries get small slots
 * and more of them in the same bytes, and an entry that no longer fits when the slots shrink is let
 * go with what it held written, or keeps its key without its value. No inlink is lost on the way.
 */
class LinkTargetSlotsTest {

  private static final Instant T0 = Instant.parse("2026-12-03T00:00:00Z");

  /** What the table handed back to be written, by URL: the inlinks of its last write. */
  private final Map<String, LinkTargets.Held> writes = new HashMap<>();

  @Test
  void smallEntriesGetSmallSlotsAndMoreOfThem() {
    LinkTargets table = new LinkTargets(8_192);
    assertEquals(LinkTargets.MAX_SLOT_BYTES, table.slotBytes());
    int urls = 30_000;
    for (int i = 0; i < urls; i++) put(table, "https://a.example/u" + i, 60, 1);
    // Keys of 19-24 bytes and values of 60: the entries put since the last growth fit 88 bytes.
    assertEquals(88, table.slotBytes());
    assertEquals(8_192L * LinkTargets.ENTRY_BYTES / (88 + 34) / LinkTargets.WAYS * LinkTargets.WAYS,
        table.maxEntries(), "the same bytes as 8,192 entries of 192-byte slots");
    assertTrue(table.maxEntries() > 8_192 * 3 / 2, "entries " + table.maxEntries());
    int held = 0;
    for (int i = 0; i < urls; i++) {
      String url = "https://a.example/u" + i;
      int slot = table.find(url, Keys.url(url));
      if (slot >= 0) {
        held++;
        LinkTargets.Held h = table.held(slot);
        assertEquals(1, h.inlinks(), url);
        assertArrayEquals(value(url, 60), h.value(), url);
        assertTrue(!writes.containsKey(url), "held and written: " + url);
      } else {
        assertEquals(1, writes.get(url).inlinks(), "evicted with its inlink written: " + url);
        assertArrayEquals(value(url, 60), writes.get(url).value(), url);
      }
    }
    assertTrue(held > 8_192, "held " + held + ", no more than 192-byte slots would hold");
  }

  @Test
  void longEntriesKeepLargeSlots() {
    LinkTargets table = new LinkTargets(8_192);
    for (int i = 0; i < 30_000; i++) put(table, "https://a.example/u" + i, 150, 1);
    // Keys of 19-24 bytes and values of 150: slots of 176 bytes, little more room than at 192.
    assertEquals(176, table.slotBytes());
    assertEquals(8_192L * LinkTargets.ENTRY_BYTES / (176 + 34) / LinkTargets.WAYS * LinkTargets.WAYS, table.maxEntries());
  }

  /**
   * Long entries first, then many short ones: when the slots shrink, a long entry holding a raise is
   * written with it and let go, one holding inlinks alone keeps its key and drops its value (read
   * when it must be written), one whose key is too long is let go with its inlinks written.
   */
  @Test
  void entriesThatNoLongerFitAreLetGoOrKeepTheirKeyAlone() {
    LinkTargets table = new LinkTargets(8_192);
    String raised = "https://a.example/raised";
    String longValue = "https://a.example/long-value";
    String longKey = "https://a.example/" + "k".repeat(100);
    int slot = table.putRaised(record(raised), Keys.url(raised), value(raised, 120), 100, 2, 7, this::written);
    assertTrue(slot >= 0);
    put(table, longValue, 120, 3);
    put(table, longKey, 20, 4);
    for (int i = 0; table.slotBytes() == LinkTargets.MAX_SLOT_BYTES; i++) put(table, "https://a.example/u" + i, 40, 0);
    assertTrue(table.slotBytes() < 100, "slots " + table.slotBytes());

    assertEquals(-1, table.find(raised, Keys.url(raised)));
    LinkTargets.Held r = writes.get(raised);
    assertTrue(r.raised(), "its raise written");
    assertEquals(100, r.rank());
    assertEquals(2, r.inlinks());
    assertArrayEquals(value(raised, 120), r.value());
    assertEquals(0, table.raisedCount());

    int kept = table.find(longValue, Keys.url(longValue));
    assertTrue(kept >= 0, "its key fits");
    assertNull(table.held(kept).value(), "its value does not");
    assertEquals(3, table.held(kept).inlinks());
    assertTrue(!writes.containsKey(longValue));

    assertEquals(-1, table.find(longKey, Keys.url(longKey)));
    assertEquals(4, writes.get(longKey).inlinks());
    assertArrayEquals(value(longKey, 20), writes.get(longKey).value(), "written with the value it kept");
  }

  /**
   * Long entries holding inlinks fill half the table, then short ones come: the slots the short ones
   * would take let go more held entries than a growth may write at once, so the slots stay long enough.
   */
  @Test
  void aGrowthWritesNoBurst() {
    LinkTargets table = new LinkTargets(8_192);
    int longUrls = 2 * LinkTargets.MAX_LET_GO - 8;
    for (int i = 0; i < longUrls; i++) put(table, "https://a.example/" + "k".repeat(70) + i, 10, 1);
    for (int i = 0; i <= 10_000 && (table.maxEntries() <= 8_192 || table.slotBytes() > 100); i++) {
      put(table, "https://a.example/u" + i, 20, 0);
    }
    assertEquals(96, table.slotBytes(), "the long keys' slot, not 64: the short URLs' alone");
    assertTrue(writes.size() < 50, "no burst of writes: " + writes.size());
  }

  /** A table that starts at its capacity does not grow, and so keeps the largest slots. */
  @Test
  void aTableAtItsCapacityKeepsItsSlots() {
    LinkTargets table = new LinkTargets(LinkTargets.WAYS);
    for (int i = 0; i < 100; i++) put(table, "https://a.example/u" + i, 10, 1);
    assertEquals(LinkTargets.MAX_SLOT_BYTES, table.slotBytes());
    assertEquals(LinkTargets.WAYS, table.maxEntries());
  }

  private void put(LinkTargets table, String url, int valueLength, int inlinks) {
    table.put(record(url), Keys.url(url), value(url, valueLength), inlinks, this::written);
  }

  private void written(LinkTargets.Held held) {
    writes.put(Keys.url(held.key()), held);
  }

  private static UrlRecord record(String url) {
    return new UrlRecord(url, 1, Optional.empty(), T0, 0, Optional.empty(), T0, 0.5, 0, 0);
  }

  /** A value of {@code length} bytes of its own for each URL: the table keeps values as bytes. */
  private static byte[] value(String url, int length) {
    byte[] seed = url.getBytes(StandardCharsets.UTF_8);
    byte[] value = new byte[length];
    for (int i = 0; i < length; i++) value[i] = seed[(i * 7 + url.length()) % seed.length];
    return value;
  }
}
