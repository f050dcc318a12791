package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a kill -9 may cost of the inlinks and raises held in memory (issue 15): those counted since a
 * URL's record was last written, and nothing else: every URL is there, and every priority and due key
 * is the one of the count last written.
 */
class HeldInlinksCrashTest {

  private static final int ACKS_BEFORE_KILL = 200;
  private static final int HUBS = 20;
  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");

  static String page(int i) {
    return "https://held.example/page/" + i;
  }

  static String hub(int h) {
    return "https://held.example/hub/" + h;
  }

  /** The child: records pages that each link to every hub, printing {@code ack N} once page N is recorded. */
  public static final class Child {

    private Child() {}

    public static void main(String[] args) {
      RocksCrawlStore store = RocksCrawlStore.open(Path.of(args[0]));
      for (int i = 0; ; i++) {
        CrawlRecord crawl = new CrawlRecord(page(i), T0.plusSeconds(i), Outcome.FETCHED, 200, 5,
            Optional.of("text/html"), 100, Optional.empty(), Optional.empty(), Optional.empty(), false,
            false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
        List<Candidate> links = new ArrayList<>();
        for (int h = 0; h < HUBS; h++) links.add(new Candidate(hub(h), 1, Optional.of(page(i))));
        store.record(crawl, links);
        System.out.println("ack " + i);
        System.out.flush();
      }
    }
  }

  @TempDir
  Path dir;

  @Test
  @Timeout(120)
  void aKillLosesOnlyInlinksAndRaisesHeldSinceTheLastWrite() throws Exception {
    Path storeDir = dir.resolve("store");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "--enable-native-access=ALL-UNNAMED", Child.class.getName(), storeDir.toString())
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
    int lastAck = -1;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (lastAck < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
        if (line.startsWith("ack ")) lastAck = Integer.parseInt(line.substring(4));
      }
      child.destroyForcibly(); // SIGKILL on Linux: no close(), the held inlinks are not written
      child.waitFor();
    }
    if (lastAck < ACKS_BEFORE_KILL) {
      fail("the child stopped after ack " + lastAck + ": " + Files.readString(dir.resolve("child-stderr.txt")));
    }

    try (RocksCrawlStore store = RocksCrawlStore.open(storeDir)) {
      for (int i = 0; i <= lastAck; i++) assertTrue(store.url(page(i)).isPresent(), "lost " + page(i));
      // Every page recorded (the acknowledged ones and those written before the kill landed) linked to
      // every hub. A kill loses at most the inlinks and the raise held since a hub's record was last
      // written: fewer than max(16, an eighth of its record's).
      int linked = lastAck + 1;
      while (store.url(page(linked)).isPresent()) linked++;
      List<DueCandidate> due = store.due(Origin.ofUrl(hub(0)), T0, 1_000);
      assertEquals(HUBS, due.stream().filter(d -> d.url().contains("/hub/")).count(), "every hub due once");
      for (int h = 0; h < HUBS; h++) {
        UrlRecord url = store.url(hub(h)).orElseThrow(() -> new AssertionError("lost a hub"));
        int inlinks = url.inlinks();
        assertTrue(inlinks <= linked, hub(h) + ": " + inlinks + " after " + linked + " pages");
        assertTrue(linked - inlinks < Math.max(16, inlinks / 8), hub(h) + ": " + inlinks + " after " + linked + " pages");
        double priority = Ranking.dequantize(Ranking.quantize(Ranking.LINKS.priority(hub(h), 1, inlinks)));
        assertEquals(priority, url.priority(), hub(h));
        DueCandidate entry = due.stream().filter(d -> d.url().equals(url.url())).findFirst().orElseThrow();
        assertEquals(priority, entry.priority(), "its due key has its priority: " + hub(h));
      }
    }
  }
}
