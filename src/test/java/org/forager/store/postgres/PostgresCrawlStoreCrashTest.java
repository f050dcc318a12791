package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a kill -9 of a crawler process can lose on the PostgreSQL store with group commit (issue 16,
 * item 2): only calls that had not returned. A child records from eight threads at once (their
 * records share transactions) and is killed; every record it was told had returned is there with its
 * links, and whatever else got in came in whole.
 */
@Timeout(120)
class PostgresCrawlStoreCrashTest {

  private static final int ACKS_BEFORE_KILL = 400;

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;

  @TempDir
  Path dir;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @Test
  void everyAcknowledgedGroupedRecordSurvivesKillNine() throws Exception {
    String url = postgres.freshSchema();
    PostgresCrawlStore.open(url, 1).close(); // the schema first, so that the child starts writing at once
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        PostgresCrashWriter.class.getName(), url)
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
    int[] lastAck = new int[PostgresCrashWriter.THREADS];
    Arrays.fill(lastAck, -1);
    int acks = 0;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (acks < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
        if (!line.startsWith("ack ")) continue;
        String[] parts = line.split(" ");
        lastAck[Integer.parseInt(parts[1])] = Integer.parseInt(parts[2]);
        acks++;
      }
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
      child.waitFor();
    }
    if (acks < ACKS_BEFORE_KILL) {
      fail("the child stopped after " + acks + " acks: " + Files.readString(dir.resolve("child-stderr.txt")));
    }

    try (PostgresCrawlStore store = PostgresCrawlStore.open(url, 2)) {
      for (int t = 0; t < PostgresCrashWriter.THREADS; t++) {
        for (int i = 0; i <= lastAck[t]; i++) {
          String page = PostgresCrashWriter.page(t, i);
          assertEquals(1, store.url(page).orElseThrow(() -> new AssertionError("lost " + page)).fetchCount());
          assertEquals(1, store.history(page).size());
        }
      }
      // Whatever else got in (calls in flight at the kill) came in whole: a page with all its links.
      List<String> pages = new ArrayList<>();
      store.forEachUrl(u -> {
        if (u.url().contains("/page/")) pages.add(u.url());
      });
      for (String page : pages) {
        int t = Integer.parseInt(page.substring("https://crash".length(), page.indexOf('.')));
        int i = Integer.parseInt(page.substring(page.lastIndexOf('/') + 1));
        for (int j = 0; j < PostgresCrashWriter.LINKS; j++) {
          String link = PostgresCrashWriter.link(t, i, j);
          assertTrue(store.url(link).isPresent(), "torn record " + page + ": no " + link);
        }
      }
      assertEquals(pages.size() * (1L + PostgresCrashWriter.LINKS), store.urlCount());
      assertTrue(pages.size() >= acks);
    }
  }
}
