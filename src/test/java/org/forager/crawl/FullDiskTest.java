package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.forager.fetch.Outcome;
import org.forager.store.CrawlRecord;
import org.forager.store.RocksCrawlStore;
import org.forager.store.UrlRecord;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk under each output of a crawl (issue 12 item 8): the crawl log, the WARC directory
 * and the embedded store each get a tmpfs of their own, mounted in a private mount namespace
 * ({@code unshare}, no privilege needed where user namespaces are allowed). Mid-crawl, when page
 * {@code /p20} is asked for, the tmpfs is filled to the last byte before the page is answered, so
 * the kernel answers {@code ENOSPC} through the real writers. The crawl must stop with exit 1 and a
 * line naming the path, leave the data directory consistent, and resume to the end once the filler
 * is removed. Skipped where {@code unshare} or user namespaces are unavailable.
 */
@Timeout(300)
class FullDiskTest {

  private static final int PAGES = 60;
  private static final String TRIGGER = "/p20";

  @TempDir Path tmp;

  @Test
  void aFullDiskUnderTheCrawlLogStopsTheCrawlNamingTheFile() throws Exception {
    crawlOntoAFullDisk("logs", "cannot write crawl log " + data().resolve("logs/crawl.jsonl")
        + ": No space left on device");
  }

  @Test
  void aFullDiskUnderTheWarcFilesStopsTheCrawlNamingTheFile() throws Exception {
    crawlOntoAFullDisk("warc", "cannot write WARC file " + data().resolve("warc") + "/forager-");
  }

  @Test
  void aFullDiskUnderTheStoreStopsTheCrawlNamingTheStore() throws Exception {
    crawlOntoAFullDisk("store", "crawl store at " + data().resolve("store") + ": ");
  }

  /**
   * Crawls a site onto a data directory whose {@code output} is a tmpfs filled up mid-crawl, then,
   * with the filler removed, again; checks the first run's failure and the second's completion.
   */
  private void crawlOntoAFullDisk(String output, String failure) throws Exception {
    assumeSmallDisksCanBeMounted();
    Path go = fifo("go");
    Path filled = fifo("filled");
    AtomicBoolean first = new AtomicBoolean(true);
    try (TestSite site = site().route(TRIGGER, ex -> {
      if (first.getAndSet(false)) {
        Files.writeString(go, "go\n"); // blocks until the script listens
        Files.readString(filled); // blocks until the disk is full
      }
      TestSite.respond(ex, 200, "text/html", page(20));
    })) {
      Path data = data();
      Path mount = Files.createDirectories(data.resolve(output));
      Path kept = Files.createDirectories(tmp.resolve("kept"));
      Path config = tmp.resolve("forager.yaml");
      // One origin, one request at a time: the trigger page is answered after the disk filled.
      Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
          + "user_agent: \"TestBot/1.0 (+https://example.org/bot)\"\n"
          + "politeness: { min_delay: 1ms, response_time_factor: 0 }\n"
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
      List<String> crawl = ChildCrawl.builder(config, "--quiet").command();
      // Small enough that RocksDB cannot preallocate its WAL there (it would write into that space).
      String script = """
          mount -t tmpfs -o size=8m tmpfs "$MOUNT" || exit 90
          ( read line < "$GO"; cat /dev/zero > "$MOUNT/filler" 2>/dev/null; echo filled > "$FILLED" ) &
          "$@" > "$TMP/first.log" 2>&1; echo $? > "$TMP/first.exit"
          wait
          rm "$MOUNT/filler"
          "$@" > "$TMP/second.log" 2>&1; echo $? > "$TMP/second.exit"
          cp -a "$MOUNT/." "$KEPT/" || exit 92
          """;
      List<String> command = new ArrayList<>(List.of("unshare", "--user", "--map-root-user", "--mount",
          "sh", "-c", script, "sh"));
      command.addAll(crawl);
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(tmp.resolve("unshare.log").toFile());
      builder.environment().putAll(Map.of("MOUNT", mount.toString(), "GO", go.toString(),
          "FILLED", filled.toString(), "TMP", tmp.toString(), "KEPT", kept.toString()));
      Process namespace = builder.start();
      assertTrue(namespace.waitFor(240, TimeUnit.SECONDS), "both runs ended");
      assertEquals(0, namespace.exitValue(), Files.readString(tmp.resolve("unshare.log")));
      Files.delete(mount);
      Files.move(kept, mount);

      String firstOutput = Files.readString(tmp.resolve("first.log"));
      assertEquals("1", Files.readString(tmp.resolve("first.exit")).strip(), firstOutput);
      assertTrue(firstOutput.contains("forager: stopping the crawl: cannot record the crawl: " + failure),
          firstOutput);
      assertTrue(firstOutput.contains("No space left on device"), firstOutput);
      assertFalse(firstOutput.contains("\tat "), "no stack trace: " + firstOutput);
      assertFalse(firstOutput.contains("error while closing"), "the failure is told once: " + firstOutput);
      // Every line of Forager's own names the full place; the rest is the summary.
      assertTrue(firstOutput.lines().filter(line -> line.startsWith("forager: "))
          .allMatch(line -> line.contains(mount.toString())), firstOutput);

      String secondOutput = Files.readString(tmp.resolve("second.log"));
      assertEquals("0", Files.readString(tmp.resolve("second.exit")).strip(), secondOutput);
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        for (int i = 0; i < PAGES; i++) {
          Optional<Outcome> outcome = store.url(site.url("/p" + i)).flatMap(UrlRecord::lastCrawl)
              .map(CrawlRecord::outcome);
          assertEquals(Optional.of(Outcome.FETCHED), outcome, "/p" + i + "\n" + secondOutput);
        }
      }
      // Resumed, not restarted: at most the fetch in flight when the disk filled is repeated.
      List<String> pages = site.paths().stream().filter(p -> !p.equals("/robots.txt")).toList();
      assertTrue(pages.size() - new HashSet<>(pages).size() <= 1, "fetched again: " + pages);
      assertTrue(pages.containsAll(List.of("/", "/p0", "/p" + (PAGES - 1))), pages.toString());
      TestCrawl.log(data); // every line whole JSON
      TestCrawl.assertWarcFilesFinishedAndReadable(data);
      // Each index was written as its file was finished, from the records written: none of a record
      // the full disk cut off (it must match the index read back from the file).
      TestCrawl.assertIndexesAsReadBack(data);
      try (Stream<Path> warcs = Files.list(data.resolve("warc")); Stream<Path> indexes = Files.list(data.resolve("indexes"))) {
        assertEquals(warcs.count(), indexes.count(), "an index per WARC file");
      }
      TestCrawl.assertPolite(data);
    }
  }

  private Path fifo(String name) throws IOException, InterruptedException {
    Path path = tmp.resolve(name);
    assertEquals(0, new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor());
    return path;
  }

  private Path data() {
    return tmp.resolve("data");
  }

  /** A chain of pages, each linking to the next few. */
  private static TestSite site() throws IOException {
    TestSite site = TestSite.start();
    site.linking("/", "/p0");
    for (int i = 0; i < PAGES; i++) {
      if (!("/p" + i).equals(TRIGGER)) site.html("/p" + i, page(i));
    }
    return site;
  }

  /** A few kilobytes of text that compresses about as little as prose, and links to the next pages. */
  private static String page(int i) {
    Random random = new Random(i);
    StringBuilder html = new StringBuilder("<!doctype html><title>p").append(i).append("</title><p>");
    for (int w = 0; w < 600; w++) html.append(Long.toString(random.nextLong() >>> 40, 36)).append(' ');
    for (int j = i + 1; j < Math.min(PAGES, i + 4); j++) html.append("<a href=\"/p").append(j).append("\">p</a>");
    return html.toString();
  }

  /** Skips the test where this machine cannot mount a tmpfs in a user namespace. */
  private void assumeSmallDisksCanBeMounted() throws InterruptedException {
    try {
      Path probe = Files.createDirectories(tmp.resolve("probe"));
      Process p = new ProcessBuilder("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
          "mount -t tmpfs -o size=64k tmpfs \"$0\"", probe.toString()).redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
      Assumptions.assumeTrue(mounted, "needs unshare and unprivileged user namespaces to mount a small tmpfs");
      try (Stream<Path> left = Files.list(probe)) {
        assertEquals(0, left.count());
      }
    } catch (IOException e) {
      Assumptions.abort("needs unshare: " + e.getMessage());
      throw new UncheckedIOException(e);
    }
  }
}
