package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The link table against a model of what it must keep (issue 15): random links, raises, crawls, drains
 * and clears of URLs whose key and value lengths change by phase, so that the slots grow and shrink
 * several times; after each step what the table holds agrees with the model and every write it hands
 * back carries the model's inlinks, ranks and value on disk. A second thread asks the table's hints
 * without the lock all the while: they must never throw.
 */
class LinkTargetsModelTest {
  static final Instant T0 = Instant.parse("2026-12-03T00:00:00Z");
  static final class Disk { int inlinks; int rank; byte[] value; }
  static final class Truth { int inlinks; int rank; }

  final Map<String, Disk> disk = new HashMap<>();
  final Map<String, Truth> truth = new HashMap<>();
  final Set<String> crawled = new HashSet<>();
  final Map<String, Integer> valueLength = new HashMap<>();
  Random random;
  int phase;
  long writes;
  final List<Integer> sizeChanges = new ArrayList<>();

  static String origin(String url) {
    int i = url.indexOf('/', 8);
    return url.substring(0, i);
  }

  UrlRecord record(String url, Disk d) {
    return new UrlRecord(url, 1, Optional.empty(), T0, 0, Optional.empty(), T0, Ranking.dequantize(d.rank), d.inlinks, 0);
  }

  byte[] newValue(String url) {
    int length = valueLength.get(url) + random.nextInt(5);
    byte[] v = new byte[length];
    random.nextBytes(v);
    return v;
  }

  LinkTargets.Written write(LinkTargets.Held h) {
    writes++;
    String url = Keys.url(h.key());
    Disk d = disk.get(url);
    Truth t = truth.get(url);
    if (d == null || t == null) fail("write of unknown or crawled " + url);
    if (h.value() != null) assertArrayEquals(d.value, h.value(), "value held is the one on disk: " + url);
    assertEquals(t.inlinks, h.inlinks(), "inlinks written: " + url);
    if (h.raised()) {
      assertEquals(d.rank, h.writtenRank(), "written rank " + url);
      assertEquals(t.rank, h.rank(), "raised rank " + url);
      d.rank = h.rank();
    } else {
      assertEquals(t.rank, d.rank, "unraised rank " + url);
    }
    d.inlinks = h.inlinks();
    d.value = newValue(url);
    return new LinkTargets.Written(record(url, d), d.value);
  }

  String url() {
    int o = random.nextInt(6);
    int n = random.nextInt(6000);
    String path;
    switch (phase % 3) {
      case 0 -> path = "p" + n; // short keys
      case 1 -> path = "long/" + "x".repeat(30 + (n % 90)) + n; // long keys
      default -> path = (n % 2 == 0 ? "q" : "long/" + "y".repeat(n % 150)) + n;
    }
    String url = "https://o" + o + ".example/" + path;
    valueLength.computeIfAbsent(url, u -> switch (phase % 3) {
      case 0 -> 20 + random.nextInt(20);
      case 1 -> 40 + random.nextInt(100);
      default -> 10 + random.nextInt(170);
    });
    return url;
  }

  void link(LinkTargets t) {
    String url = url();
    if (crawled.contains(url)) return;
    byte[] key = Keys.url(url);
    int slot = t.find(url, key);
    assertEquals(slot >= 0, t.mayHold(url, key), "hint agrees " + url);
    int bucket = LinkTargets.bucketOf(origin(url));
    if (slot >= 0) {
      Truth tr = truth.get(url);
      assertEquals(tr.inlinks, t.total(slot));
      assertEquals(tr.rank, t.rank(slot));
      tr.inlinks = (int) Math.min(tr.inlinks + 1L, Integer.MAX_VALUE);
      int rank = tr.rank + (random.nextInt(10) < 3 ? 1 + random.nextInt(50) : 0);
      if (rank <= t.rank(slot)) {
        t.count(slot);
        if (t.mustWrite(slot)) {
          LinkTargets.Written w = write(t.held(slot));
          t.written(slot, w.record(), w.value());
        }
        return;
      }
      tr.rank = rank;
      if (t.raise(slot, rank, tr.inlinks, bucket)) return;
      LinkTargets.Held h = t.held(slot);
      Disk d = disk.get(url);
      if (h.value() != null) assertArrayEquals(d.value, h.value());
      d.rank = rank;
      d.inlinks = tr.inlinks;
      d.value = newValue(url);
      t.written(slot, record(url, d), d.value);
      return;
    }
    Disk d = disk.get(url);
    if (d == null) { // fresh
      d = new Disk();
      d.inlinks = random.nextBoolean() ? 1 : 0;
      d.rank = random.nextInt(1000);
      d.value = newValue(url);
      disk.put(url, d);
      Truth tr = new Truth();
      tr.inlinks = d.inlinks;
      tr.rank = d.rank;
      truth.put(url, tr);
      t.put(record(url, d), key, d.value, 0, this::write);
      return;
    }
    Truth tr = truth.get(url);
    assertEquals(tr.inlinks, d.inlinks, "no entry: disk is the truth " + url);
    assertEquals(tr.rank, d.rank, "no entry: disk is the truth " + url);
    tr.inlinks++;
    int rank = tr.rank + (random.nextInt(10) < 3 ? 1 + random.nextInt(50) : 0);
    if (rank > d.rank) {
      tr.rank = rank;
      int s = t.putRaised(record(url, d), key, d.value, rank, tr.inlinks, bucket, this::write);
      if (s >= 0) {
        assertEquals(s, t.find(url, key));
        return;
      }
      d.rank = rank;
      d.inlinks = tr.inlinks;
      d.value = newValue(url);
      t.put(record(url, d), key, d.value, 0, this::write);
      return;
    }
    boolean there = t.put(record(url, d), key, d.value, 1, this::write);
    if (!there) d.inlinks++;
  }

  void crawl(LinkTargets t) {
    String url = url();
    if (crawled.contains(url) || !disk.containsKey(url)) return;
    byte[] key = Keys.url(url);
    int slot = t.find(url, key);
    Truth tr = truth.get(url);
    Disk d = disk.get(url);
    if (slot >= 0) {
      LinkTargets.Held h = t.held(slot);
      assertEquals(tr.inlinks, h.inlinks());
      if (h.value() != null) assertArrayEquals(d.value, h.value());
      assertEquals(h.raised() ? h.writtenRank() : tr.rank, d.rank);
    } else {
      assertEquals(tr.inlinks, d.inlinks);
      assertEquals(tr.rank, d.rank);
    }
    t.forgetCrawled(url, key);
    assertEquals(-1, t.find(url, key));
    crawled.add(url);
    truth.remove(url);
  }

  void checkAll(LinkTargets t) {
    int raised = 0;
    Map<String, Set<String>> raisedByOrigin = new HashMap<>();
    for (Map.Entry<String, Truth> e : truth.entrySet()) {
      String url = e.getKey();
      Truth tr = e.getValue();
      Disk d = disk.get(url);
      byte[] key = Keys.url(url);
      boolean holdsRaise = t.holdsRaise(url, key);
      int slot = t.find(url, key);
      assertEquals(slot >= 0, t.mayHold(url, key));
      if (slot >= 0) {
        assertEquals(tr.inlinks, t.total(slot), url);
        assertEquals(tr.rank, t.rank(slot), url);
        LinkTargets.Held h = t.held(slot);
        if (h.value() != null) assertArrayEquals(d.value, h.value(), url);
        assertEquals(h.value() != null, t.mayHoldRecord(url, key), url);
        boolean r = tr.rank != d.rank;
        assertEquals(r, holdsRaise, url);
        assertEquals(r ? d.rank : -1, t.writtenRank(slot), url);
        if (r) {
          raised++;
          assertTrue(h.value() != null, "raised keeps its value " + url);
          raisedByOrigin.computeIfAbsent(origin(url), o -> new HashSet<>()).add(url);
        }
      } else {
        assertEquals(tr.inlinks, d.inlinks, "evicted: disk " + url);
        assertEquals(tr.rank, d.rank, "evicted: disk rank " + url);
        assertTrue(!holdsRaise);
      }
    }
    assertEquals(raised, t.raisedCount());
    for (int o = 0; o < 6; o++) {
      String origin = "https://o" + o + ".example";
      List<LinkTargets.Raised> list = t.raisedIn(LinkTargets.bucketOf(origin), origin.getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
      Set<String> got = new HashSet<>();
      for (LinkTargets.Raised r : list) {
        assertTrue(got.add(r.url()), "listed once " + r.url());
        assertEquals(truth.get(r.url()).rank, r.rank());
        assertArrayEquals(disk.get(r.url()).value, r.value());
      }
      assertEquals(raisedByOrigin.getOrDefault(origin, Set.of()), got, origin);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {2, 3, 4, 6}) // seeds whose slots change size at least twice in 300,000 steps
  void randomized(long seed) throws Exception {
    random = new Random(seed);
    int capacity = seed % 2 == 0 ? 40_000 : 9_000;
    LinkTargets t = new LinkTargets(capacity);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    AtomicLong hints = new AtomicLong();
    String[] pool = new String[4096];
    for (int i = 0; i < pool.length; i++) pool[i] = "https://o" + (i % 6) + ".example/" + (i % 3 == 0 ? "p" + i : "long/" + "x".repeat(i % 150) + i);
    Thread hinter = new Thread(() -> {
      Random r = new Random(seed);
      try {
        while (!stop.get()) {
          String u = pool[r.nextInt(pool.length)];
          byte[] k = Keys.url(u);
          t.mayHold(u, k);
          t.mayHoldRecord(u, k);
          t.mayHoldRaises(r.nextInt(LinkTargets.RAISED_BUCKETS));
          hints.incrementAndGet();
        }
      } catch (Throwable e) {
        failed.set(e);
      }
    });
    hinter.start();
    try {
      for (int op = 0; op < 300_000; op++) {
        if (random.nextInt(12_000) == 0) phase = random.nextInt(3);
        if (random.nextInt(60_000) == 0) {
          t.clear();
          for (Map.Entry<String, Truth> e : truth.entrySet()) {
            Disk d = disk.get(e.getKey());
            e.getValue().inlinks = d.inlinks;
            e.getValue().rank = d.rank;
          }
        }
        int k = random.nextInt(100);
        if (k < 88) link(t);
        else if (k < 97) crawl(t);
        else if (k < 98) {
          t.drain(1 + random.nextInt(50), this::write);
        } else if (k < 99 && random.nextInt(50) == 0) {
          checkAll(t);
        } else link(t);
        if (sizeChanges.isEmpty() || sizeChanges.get(sizeChanges.size() - 1) != t.slotBytes()) sizeChanges.add(t.slotBytes());
        if (failed.get() != null) break;
      }
      checkAll(t);
      while (t.drain(100, this::write)) { }
      checkAll(t);
    } finally {
      stop.set(true);
      hinter.join();
    }
    if (failed.get() != null) throw new AssertionError("hint threw", failed.get());
    assertTrue(sizeChanges.size() >= 3, "the slots grew and shrank: " + sizeChanges);
    assertTrue(writes > 0 && hints.get() > 0, writes + " writes, " + hints + " hints");
  }
}
