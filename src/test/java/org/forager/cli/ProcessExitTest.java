package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl process that ends through libc's {@code _exit} ({@link ProcessExit}, as the launcher asks
 * with {@code -Dforager.exit=native}) has written everything a crawl that ends through the JVM's exit
 * has: its summary on standard output, its WARC files finished and readable, its crawl log, its exit
 * code; and it leaves no {@code hsperfdata} file behind. The JVM's own exit work is skipped: the
 * summary {@code -Xlog:safepoint+stats} prints at the JVM's exit is missing, and present without the
 * property.
 */
@Timeout(120)
@EnabledOnOs(OS.LINUX)
class ProcessExitTest {

  /** Safepoint statistics: their summary is printed by the JVM's exit (its {@code VM_Exit}), nowhere else. */
  private static final String EXIT_LOG = "-Xlog:safepoint+stats=info:stdout";
  private static final String EXIT_LOG_TAG = "Maximum vm operation time";

  @TempDir Path tmp;

  @Test
  void aCrawlEndedByNativeExitHasWrittenEverything() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b", "/c").html("/a", "<p>a</p>").html("/b", "<p>b</p>").html("/c", "<p>c</p>");
      Path data = tmp.resolve("native");
      Run run = crawl(site, data, List.of("-D" + ProcessExit.PROPERTY + "=native", EXIT_LOG));

      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().lines().anyMatch(l -> l.startsWith("WARC ")),
          "the summary's last line reached standard output:\n" + run.output());
      assertFalse(run.output().contains(EXIT_LOG_TAG), "the JVM's exit did not run:\n" + run.output());
      TestCrawl.assertWarcFilesFinishedAndReadable(data);
      assertEquals(5, TestCrawl.assertIndexesAsReadBack(data), "an index line for robots.txt and each page");
      assertEquals(Set.of("/robots.txt", "/", "/a", "/b", "/c"), new HashSet<>(site.paths()));
      assertEquals(5, TestCrawl.log(data).size(), "a crawl-log line for robots.txt and each page");
      TestCrawl.assertPolite(data);
      Path perfData = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(run.pid()));
      assertFalse(Files.exists(perfData), "the JVM's performance-data file is removed: " + perfData);
    }
  }

  @Test
  void withoutTheLaunchersPropertyTheJvmsOwnExitRuns() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Run run = crawl(site, tmp.resolve("jvm"), List.of(EXIT_LOG));
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains(EXIT_LOG_TAG), "the JVM's exit printed its safepoint statistics:\n" + run.output());
    }
  }

  @Test
  void aFailedCrawlEndedByNativeExitKeepsItsExitCodeAndItsLine() throws Exception {
    Path config = tmp.resolve("forager.yaml");
    Files.writeString(config, "seeds: [ \"http://127.0.0.1:1/\" ]\nconcurrency: many\n");
    Process process = ChildCrawl.builder(List.of("-D" + ProcessExit.PROPERTY + "=native"), config).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(Main.EXIT_USAGE, process.exitValue(), output);
    assertTrue(output.startsWith("forager: ") && output.contains("concurrency"), output);
  }

  private record Run(int exitCode, String output, long pid) {}

  private Run crawl(TestSite site, Path data, List<String> jvmOptions) throws Exception {
    Path config = tmp.resolve(data.getFileName() + ".yaml");
    Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
        + "politeness: { min_delay: 0s, response_time_factor: 0 }\n"
        + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
    Process process = ChildCrawl.builder(jvmOptions, config).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
    return new Run(process.exitValue(), output, process.pid());
  }
}
