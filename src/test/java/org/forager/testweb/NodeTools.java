package org.forager.testweb;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The independent tools (warcio, js-wacz, playwright-core, ReplayWeb.page) that {@code
 * src/test/npm/install} puts under {@code src/test/npm}, and node to run them. Tests that need them
 * skip with {@link #notFound} when they are missing; {@code .ci/run} installs them.
 */
public final class NodeTools {

  /** Where the install script puts the tools (tests run in the project's directory). */
  public static final Path DIR = Path.of("src", "test", "npm").toAbsolutePath();

  /** What a finished command printed and returned. */
  public record Result(int exitCode, String stdout, String stderr) {}

  private final Path node;

  private NodeTools(Path node) {
    this.node = node;
  }

  /** node on the PATH and the installed tools, if both are there. */
  public static Optional<NodeTools> find() {
    if (!Files.isDirectory(DIR.resolve("node_modules"))) return Optional.empty();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "node"))) return Optional.of(new NodeTools(Path.of(dir, "node")));
    }
    return Optional.empty();
  }

  /** Why a test is skipped, naming what it would have checked. */
  public static String notFound(String toDo) {
    return "no node on the PATH or no tools in " + DIR + " (install them with src/test/npm/install, "
        + "which needs node and npm; .ci/run does) to " + toDo;
  }

  /** ReplayWeb.page's {@code ui.js} and {@code sw.js}, if installed. */
  public Optional<Path> replayWebPage() {
    Path dir = DIR.resolve("replaywebpage");
    return Files.isRegularFile(dir.resolve("ui.js")) && Files.isRegularFile(dir.resolve("sw.js"))
        ? Optional.of(dir) : Optional.empty();
  }

  /** Runs an installed package's command ({@code node_modules/.bin/NAME}) with node. */
  public Result runBin(Duration timeout, String name, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(node.toString(), DIR.resolve("node_modules/.bin").resolve(name).toString()));
    command.addAll(List.of(args));
    return run(timeout, command);
  }

  /** Runs a script of {@link #DIR} with node. */
  public Result runScript(Duration timeout, String script, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(node.toString(), DIR.resolve(script).toString()));
    command.addAll(List.of(args));
    return run(timeout, command);
  }

  private static Result run(Duration timeout, List<String> command) throws IOException, InterruptedException {
    Path out = Files.createTempFile("node-out", ".txt");
    Path err = Files.createTempFile("node-err", ".txt");
    try {
      Process process = new ProcessBuilder(command).directory(DIR.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new AssertionError(command + " did not finish in " + timeout + ": " + Files.readString(err));
        }
      } finally {
        process.destroyForcibly();
      }
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
