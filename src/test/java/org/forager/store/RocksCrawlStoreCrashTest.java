package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process writing to the store with SIGKILL and checks that every write it was told had
 * returned is there after reopening (crawl records with their bodies' exact-duplicate registrations,
 * and a crawl setting), and that no record is there without its discovered links.
 */
class RocksCrawlStoreCrashTest {

  private static final int ACKS_BEFORE_KILL = 300;

  @TempDir
  Path dir;

  @Test
  @Timeout(120)
  void everyAcknowledgedRecordSurvivesKillNine() throws Exception {
    Path storeDir = dir.resolve("store");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "--enable-native-access=ALL-UNNAMED", CrashWriter.class.getName(), storeDir.toString())
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
    int lastAck = -1;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (lastAck < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
        if (line.startsWith("ack ")) lastAck = Integer.parseInt(line.substring(4));
      }
      child.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no close()
      child.waitFor();
    }
    if (lastAck < ACKS_BEFORE_KILL) {
      fail("the child stopped after ack " + lastAck + ": "
          + Files.readString(dir.resolve("child-stderr.txt")));
    }

    try (RocksCrawlStore store = RocksCrawlStore.open(storeDir)) {
      for (int i = 0; i <= lastAck; i++) {
        String page = CrashWriter.page(i);
        assertEquals(1, store.url(page).orElseThrow(() -> new AssertionError("lost " + page)).fetchCount());
        assertEquals(1, store.history(page).size());
        // Its body's registration in the exact-duplicate index was written with the record.
        assertEquals(Optional.of(page), store.firstWithDigest(CrashWriter.digest(i), "https://crash.example/copy"));
        for (int j = 0; j < CrashWriter.LINKS; j++) {
          assertTrue(store.url(CrashWriter.link(i, j)).isPresent(), "lost " + CrashWriter.link(i, j));
        }
      }
      // Whatever else got in (the call in flight at the kill) came in whole.
      List<String> pages = new ArrayList<>();
      store.forEachUrl(url -> {
        if (url.url().contains("/page/")) pages.add(url.url());
      });
      for (String page : pages) {
        int i = Integer.parseInt(page.substring(page.lastIndexOf('/') + 1));
        for (int j = 0; j < CrashWriter.LINKS; j++) {
          assertTrue(store.url(CrashWriter.link(i, j)).isPresent(), "torn record " + page);
        }
      }
      assertEquals(pages.size() * (1L + CrashWriter.LINKS), store.urlCount());
      assertTrue(pages.size() >= lastAck + 1);
      int savedRound = Integer.parseInt(store.setting(CrashWriter.SETTING).orElseThrow());
      assertTrue(savedRound >= lastAck, "the setting saved in round " + lastAck + " was lost: " + savedRound);
    }
  }
}
