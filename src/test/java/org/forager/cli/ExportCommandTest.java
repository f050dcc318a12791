package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code forager export} where it cannot write: it says so, exits non-zero, and loses nothing. */
@Timeout(60)
class ExportCommandTest {

  @TempDir Path tmp;

  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  private Path data;

  @BeforeEach
  void crawl() throws Exception {
    data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, "user_agent: \"TestBot/1.0 (+https://example.org/bot)\"\npoliteness: { min_delay: 10ms }\nnetwork: { allow_private_addresses: true }\n");
      assertEquals(0, Main.run("crawl", "--config", config.toString(), "--seed", site.url("/"),
          "--data-dir", data.toString(), "--quiet"));
    }
  }

  @Test
  void aFullStandardOutputIsAFailedExportNotAnEmptyOne() throws Exception {
    Path full = Path.of("/dev/full");
    assumeTrue(Files.isWritable(full), "a system with /dev/full");
    PrintStream saved = System.out;
    try (PrintStream devFull = new PrintStream(new FileOutputStream(full.toFile()), false)) {
      System.setOut(devFull);
      assertEquals(1, Main.run("export", "--data-dir", data.toString()));
    } finally {
      System.setOut(saved);
    }
    assertTrue(console.err().contains("forager: cannot write the export to standard output"), console.err());
  }

  @Test
  void anOutputInsideTheDataDirectoryIsRefusedAndTheCrawlLogKept() throws Exception {
    Path log = data.resolve("logs/crawl.jsonl");
    String before = Files.readString(log);
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--output", log.toString()));
    assertTrue(console.err().contains("is inside the data directory"), console.err());
    assertEquals(before, Files.readString(log));
    assertEquals(0, Main.run("audit", "--data-dir", data.toString()));
    // Spelled through a parent that leads back in, too.
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--output",
        tmp.resolve("elsewhere/../data/x.jsonl").toString()));
  }

  @Test
  void anOutputThatCannotBeWrittenIsNamedWithTheSystemsReason() {
    Path nowhere = tmp.resolve("no-such-dir/x.jsonl");
    assertEquals(1, Main.run("export", "--data-dir", data.toString(), "--output", nowhere.toString()));
    assertEquals("forager: cannot write " + nowhere + ": no such file or directory", console.err().strip());
  }

  @Test
  void aFailedExportLeavesTheFileThereAsItWasAndNoTemporaryFile() throws Exception {
    // A directory with a file in it cannot be replaced by the finished export: the last step fails.
    Path target = tmp.resolve("out.jsonl");
    Files.createDirectories(target);
    Files.writeString(target.resolve("keep"), "kept");
    assertEquals(1, Main.run("export", "--data-dir", data.toString(), "--output", target.toString()));
    assertTrue(console.err().startsWith("forager: cannot write " + target + ": "), console.err());
    assertEquals("kept", Files.readString(target.resolve("keep")));
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(0, left.filter(p -> p.getFileName().toString().endsWith(".tmp")).count());
    }
  }

  @Test
  void anExportReplacesAnEarlierOneWhole() throws Exception {
    Path target = tmp.resolve("urls.jsonl");
    Files.writeString(target, "an earlier export\n");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--output", target.toString()));
    String written = Files.readString(target);
    assertTrue(written.startsWith("{") && !written.contains("an earlier export"), written);
    assertEquals(2, written.lines().count(), written); // / and /a
  }

  /**
   * In a forager process of its own: a reader that closes the pipe ({@code forager export | head}) ends
   * the export at once, without a word, with the status a shell gives a process a closed pipe ended;
   * a full disk is named.
   */
  @Test
  void aClosedPipeEndsTheExportQuietlyAndAFullDiskIsNamed() throws Exception {
    Path err = tmp.resolve("err.txt");
    Process closed = ChildCrawl.forager(List.of(), List.of("export", "--data-dir", data.toString()))
        .redirectErrorStream(false).redirectError(err.toFile()).start();
    // The read end closed before the child can have written: its first write meets no reader.
    closed.getInputStream().close();
    assertTrue(closed.waitFor(60, TimeUnit.SECONDS));
    assertEquals(Main.EXIT_PIPE_CLOSED, closed.exitValue(), Files.readString(err));
    assertEquals("", Files.readString(err));

    Path full = Path.of("/dev/full");
    assumeTrue(Files.isWritable(full), "a system with /dev/full");
    Process disk = ChildCrawl.forager(List.of(), List.of("export", "--data-dir", data.toString()))
        .redirectErrorStream(false).redirectOutput(full.toFile()).redirectError(err.toFile()).start();
    assertTrue(disk.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, disk.exitValue(), Files.readString(err));
    assertEquals("forager: cannot write the export to standard output: No space left on device;"
        + " nothing in the data directory changed\n", Files.readString(err));
  }
}
