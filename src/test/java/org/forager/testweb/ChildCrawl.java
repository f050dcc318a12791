package org.forager.testweb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code forager crawl} in a child JVM (same java, the test classpath), so that tests can kill
 * it with signals or SIGKILL as a user or a crash would.
 */
public final class ChildCrawl {

  private ChildCrawl() {}

  /** The process builder of {@code forager crawl --config CONFIG ARGS...}, output not yet redirected. */
  public static ProcessBuilder builder(Path config, String... args) {
    return builder(List.of(), config, args);
  }

  /**
   * Like {@link #builder(Path, String...)}, with extra options for the child JVM (e.g. {@code -Xmx32m});
   * standard error goes with standard output unless the caller redirects it.
   */
  public static ProcessBuilder builder(List<String> jvmOptions, Path config, String... args) {
    List<String> forager = new ArrayList<>(List.of("crawl", "--config", config.toString()));
    forager.addAll(List.of(args));
    return forager(jvmOptions, forager);
  }

  /** The process builder of {@code forager ARGS} (any command), output not yet redirected. */
  public static ProcessBuilder forager(List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.forager.cli.Main"));
    command.addAll(args);
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  /** Starts it with standard output and error appended to {@code log}. */
  public static Process start(Path config, Path log, String... args) throws IOException {
    return builder(config, args).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }
}
