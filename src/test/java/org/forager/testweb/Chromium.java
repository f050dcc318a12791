package org.forager.testweb;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium driven from its command line (no WebDriver): loads a page, lets its scripts run
 * for a budget of virtual time, then prints the DOM or saves a screenshot. Flags keep it off the
 * network except for the page asked for.
 */
public final class Chromium {

  private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome",
      "google-chrome-stable");

  private final Path binary;
  private final Path workDir;

  private Chromium(Path binary, Path workDir) {
    this.binary = binary;
    this.workDir = workDir;
  }

  /** The first Chromium on the PATH, if any. */
  public static Optional<Chromium> find(Path workDir) {
    return binary().map(binary -> new Chromium(binary, workDir));
  }

  /** The first Chromium executable on the PATH, if any. */
  public static Optional<Path> binary() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : NAMES) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        if (dir.isEmpty()) continue;
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Why a browser test is skipped, naming what it would have checked. */
  public static String notFound(String toDo) {
    return "no Chromium on the PATH (looked for " + String.join(", ", NAMES) + "); install it, e.g. "
        + "apt-get install -y chromium, to " + toDo;
  }

  /** The page's DOM after {@code budgetMillis} of virtual time. */
  public String dumpDom(URI page, int budgetMillis) throws IOException, InterruptedException {
    return run(page, budgetMillis, "--dump-dom");
  }

  /** Saves a PNG of the page as a 1200×900 window shows it after {@code budgetMillis} of virtual time. */
  public void screenshot(URI page, int budgetMillis, Path png) throws IOException, InterruptedException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    run(page, budgetMillis, "--screenshot=" + png.toAbsolutePath());
    if (!Files.isRegularFile(png)) throw new AssertionError("Chromium wrote no screenshot " + png);
  }

  private String run(URI page, int budgetMillis, String action) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(workDir, "chromium-profile");
    Path stderr = workDir.resolve("chromium-stderr.txt");
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile,
        "--window-size=1200,900", "--virtual-time-budget=" + budgetMillis, action, page.toString()));
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    byte[] out;
    try {
      out = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) throw new AssertionError("Chromium did not finish in 60 s");
    } finally {
      process.destroyForcibly();
    }
    if (process.exitValue() != 0) {
      throw new AssertionError("Chromium exited with " + process.exitValue() + ": " + Files.readString(stderr));
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
