package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line goes to standard error, and is redrawn in place only when standard error is a
 * terminal: with standard input and output on a terminal and standard error in a file, the file got
 * a carriage return and an erase-line sequence every second.
 */
@Timeout(120)
class ProgressStreamTest {

  @TempDir Path tmp;

  @Test
  void standardErrorInAFileGetsPlainLinesWhileTheTerminalIsStandardOutput() throws Exception {
    Path script = Path.of("/usr/bin/script");
    assumeTrue(Files.isExecutable(script) && Files.isDirectory(Path.of("/proc/self/fd")), "util-linux script, Linux");
    try (TestSite site = TestSite.start()) {
      site.route("/", ex -> {
        slowly(2_500); // the crawl lasts past two ticks of a terminal's line
        TestSite.respond(ex, 200, "text/html", "<p>slow</p>");
      });
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, "data_dir: \"" + tmp.resolve("data") + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
          + "politeness: { min_delay: 10ms, response_time_factor: 0 }\n"
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
      Path err = tmp.resolve("err.txt");
      List<String> crawl = ChildCrawl.builder(config).command();
      String command = crawl.stream().map(ProgressStreamTest::quoted).collect(Collectors.joining(" "))
          + " 2> " + quoted(err.toString());
      // script gives the crawl a terminal for standard input and output; standard error is the file.
      Process child = new ProcessBuilder(script.toString(), "-qec", command, "/dev/null")
          .redirectOutput(tmp.resolve("out.txt").toFile()).redirectErrorStream(true).start();
      assertTrue(child.waitFor(90, TimeUnit.SECONDS), "the crawl ended");
      assertEquals(0, child.exitValue(), Files.readString(tmp.resolve("out.txt")));
      String written = Files.readString(err);
      assertFalse(written.contains("\r") || written.contains("\u001b"), "redrawn in a file: "
          + written.replace("\r", "\\r").replace("\u001b", "\\e"));
      assertTrue(Files.readString(tmp.resolve("out.txt")).contains("FETCHED"), "the summary on the terminal");
    }
  }

  private static void slowly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
