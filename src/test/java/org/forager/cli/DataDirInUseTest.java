package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code forager} processes on one embedded data directory: the second is refused in one line
 * naming the lock, {@code status} and {@code export} read the running crawl's store without it, and a
 * crawl killed with SIGKILL leaves no lock behind (issue 12 item 13).
 */
@Timeout(120)
class DataDirInUseTest {

  @TempDir Path tmp;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  @Test
  void aSecondCrawlIsRefusedInOneLineAndTheLockDiesWithTheFirst() throws Exception {
    CountDownLatch hanging = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/hang", "/b").html("/a", "<p>a</p>").html("/b", "<p>b</p>").route("/hang", ex -> {
        hanging.countDown();
        try {
          release.await(60, TimeUnit.SECONDS); // the first crawl is busy here while the others try
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<p>finally</p>");
      });
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
          + "politeness: { min_delay: 10ms, response_time_factor: 0 }\nconcurrency: 1\n"
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
      Process first = ChildCrawl.start(config, tmp.resolve("first.log"), "--quiet");
      try {
        assertTrue(hanging.await(60, TimeUnit.SECONDS), "the first crawl reached /hang");
        String inUse = "forager: data dir " + data + " is in use by another forager process (pid " + first.pid()
            + ", lock " + data.resolve("store/forager.lock") + "); stop it or use another --data-dir";

        Process second = ChildCrawl.start(config, tmp.resolve("second.log"), "--quiet");
        assertTrue(second.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, second.exitValue());
        assertEquals(inUse, Files.readString(tmp.resolve("second.log")).strip());

        // The reading commands take no lock: they read what the running crawl has written by now. The
        // crawl reached /hang through the store's due work, so the links of / are in it, / crawled, and
        // /hang, in flight, not yet.
        assertEquals(0, Main.run("export", "--data-dir", data.toString()), console.err());
        Set<String> exported = new HashSet<>();
        console.out().lines().forEach(line -> exported.add(line.replaceAll(".*\"url\":\"([^\"]+)\".*\"state\":\"([a-z]+)\".*", "$1 $2")));
        assertEquals(4, exported.size(), exported.toString());
        assertTrue(exported.containsAll(Set.of(site.url("/") + " fetched", site.url("/hang") + " new")),
            exported.toString());
        assertEquals(0, Main.run("status", "--data-dir", data.toString()), console.err());
        String status = console.out();
        assertTrue(status.contains("a crawl (process " + first.pid() + ", started "), status);
        assertTrue(status.matches("(?s).*known URLs +4\\n.*"), status);
        assertEquals("", console.err());
      } finally {
        first.destroyForcibly(); // SIGKILL: no chance to release anything itself
        assertTrue(first.waitFor(30, TimeUnit.SECONDS));
        release.countDown();
      }

      Process third = ChildCrawl.start(config, tmp.resolve("third.log"), "--quiet");
      assertTrue(third.waitFor(60, TimeUnit.SECONDS));
      String output = Files.readString(tmp.resolve("third.log"));
      assertEquals(0, third.exitValue(), output);
      assertFalse(output.contains("in use"), output);
      assertEquals(Set.of("/robots.txt", "/", "/a", "/hang", "/b"), new HashSet<>(site.paths()));
      assertEquals(1, site.count("/a"), "the third run resumed: nothing the first finished is fetched again");
      assertEquals(2, site.count("/hang"), "the fetch in flight at the kill is fetched again");
      TestCrawl.assertPolite(data);
    }
  }
}
