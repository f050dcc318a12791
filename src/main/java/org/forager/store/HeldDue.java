package org.forager.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The next never-crawled URLs a caller holds of one origin, and what a write does to them: the
 * write's never-crawled due keys of that origin at or before the last held one are merged in, so the
 * caller need not read the due index again after each page (most of a short read's cost is its
 * seek). Exact as to this write, because it only adds never-crawled keys or moves them earlier (a
 * priority only grows): the held keys it does not replace keep their order, and none of its keys
 * can come before the last of them unmerged. Other calls' writes (other origins' links here) are
 * not in it: the caller reads again now and then. Confined to one write call.
 */
final class HeldDue {

  private record Put(byte[] key, DueCandidate due) {}

  private final String origin;
  private final List<DueCandidate> held;
  private final byte[][] keys;
  private List<Put> puts = List.of();

  /** {@code held} without {@code recorded}: the write crawls it, so it is due no more as never crawled. */
  HeldDue(String origin, List<DueCandidate> held, String recorded) {
    this.origin = origin;
    this.held = held.stream().anyMatch(h -> h.url().equals(recorded))
        ? held.stream().filter(h -> !h.url().equals(recorded)).toList()
        : held;
    keys = new byte[this.held.size()][];
    for (int i = 0; i < keys.length; i++) {
      DueCandidate h = this.held.get(i);
      if (h.fetchCount() != 0) throw new IllegalArgumentException("held URL crawled before: " + h.url());
      keys[i] = Keys.due(origin, Keys.newField(Ranking.quantize(h.priority())), h.depth(), h.url());
    }
  }

  /** Whether puts of {@code origin}'s URLs may change what is held. */
  boolean isOf(String origin) {
    return keys.length > 0 && origin.equals(this.origin);
  }

  /** A never-crawled URL of {@code origin} put at {@code dueKey}. */
  void put(String origin, byte[] dueKey, UrlRecord url) {
    if (!isOf(origin)) return;
    if (Arrays.compareUnsigned(dueKey, keys[keys.length - 1]) > 0) return; // after all held: not theirs
    if (puts.isEmpty()) puts = new ArrayList<>();
    puts.add(new Put(dueKey, new DueCandidate(url.url(), url.depth(), Optional.empty(), Optional.empty(), 0,
        url.priority(), url.hops())));
  }

  /** Forgets the puts: the write that made them was not written, and is made again. */
  void forgetPuts() {
    puts = List.of();
  }

  /** The held URLs with the puts in their places; a held URL put again is in its new place only. */
  List<DueCandidate> after() {
    if (puts.isEmpty()) return held;
    puts.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
    Set<String> moved = new HashSet<>();
    for (Put p : puts) moved.add(p.due().url());
    List<DueCandidate> merged = new ArrayList<>(held.size() + puts.size());
    int i = 0;
    for (Put p : puts) {
      for (; i < keys.length && Arrays.compareUnsigned(keys[i], p.key()) < 0; i++) {
        if (!moved.contains(held.get(i).url())) merged.add(held.get(i));
      }
      merged.add(p.due());
    }
    for (; i < keys.length; i++) {
      if (!moved.contains(held.get(i).url())) merged.add(held.get(i));
    }
    return merged;
  }
}
