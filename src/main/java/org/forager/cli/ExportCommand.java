package org.forager.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import org.forager.export.JsonlExporter;
import org.forager.export.WaczExporter;
import org.forager.io.IoFailures;
import org.forager.io.ReplacedFile;
import org.forager.store.CrawlStore;
import org.forager.warc.WarcIndexes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code forager export}: the crawl database as JSON lines, or the WARC files as a WACZ package
 * ({@code --format wacz --output FILE.wacz}; read from the data directory alone, the database left
 * closed, so it works while a crawl runs).
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Exports the crawl database as JSON lines, or the WARC files as a WACZ package.",
      "",
      "Writes one JSON object per known URL (see docs/export.md for the fields) to standard output or --output;",
      "with --format wacz, packages the finished WARC files as a WACZ file (--output FILE.wacz) for",
      "replay tools such as ReplayWeb.page (docs/warc.md).",
    })
final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin StoreOption storeOption;

  @Option(names = "--format", paramLabel = "FORMAT",
      description = "jsonl (default): the URLs; wacz (the default for an --output ending in .wacz): the WARC"
          + " files as a WACZ package.")
  String format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of standard output.")
  Path output;

  @Override
  public Integer call() throws Exception {
    boolean waczName = output != null && output.getFileName().toString().endsWith(".wacz");
    if (format == null) format = waczName ? "wacz" : "jsonl";
    if (format.equals("jsonl") && waczName) {
      return usage("--format jsonl writes JSON lines, which a file named " + output.getFileName()
          + " would not hold (a WACZ package is --format wacz)");
    }
    if (!format.equals("jsonl") && !format.equals("wacz")) {
      return usage("--format " + format + " is not supported (use jsonl or wacz)");
    }
    if (format.equals("wacz") && (output == null || !output.getFileName().toString().endsWith(".wacz"))) {
      return usage("--format wacz needs --output FILE.wacz (a WACZ file's name ends in .wacz)");
    }
    org.forager.config.CrawlConfig cfg;
    try {
      cfg = storeOption.resolve();
    } catch (StoreOption.UsageError | org.forager.config.ConfigException e) {
      return usage(e.getMessage());
    }
    if (output != null && inside(output, cfg.dataDir())) {
      return usage("--output " + output + " is inside the data directory " + cfg.dataDir()
          + ": choose a path outside it, where the crawl's own files cannot be overwritten");
    }
    if (format.equals("wacz")) return wacz(cfg.dataDir());
    try (CrawlStore store = storeOption.open(cfg)) {
      if (output == null) {
        try {
          OutputStream out = new BufferedOutputStream(StandardOutput.open(), 1 << 16);
          JsonlExporter.export(store, out);
          out.flush();
        } catch (IOException | UncheckedIOException e) {
          // The reader took what it wanted (forager export | head): no message, the status a shell
          // gives a process a closed pipe ended (141), as every Unix filter's.
          if (StandardOutput.readerGone(e)) return Main.EXIT_PIPE_CLOSED;
          spec.commandLine().getErr().println("forager: cannot write the export to standard output: "
              + IoFailures.reason(e) + "; nothing in the data directory changed");
          return Main.EXIT_RUNTIME;
        }
      } else {
        long n;
        try {
          n = ReplacedFile.write(output, file -> {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
              return JsonlExporter.export(store, out);
            }
          });
        } catch (IOException e) {
          spec.commandLine().getErr().println("forager: cannot write " + output + ": " + IoFailures.reason(e, output)
              + (Files.exists(output) ? " (the file there is as it was)" : ""));
          return Main.EXIT_RUNTIME;
        }
        spec.commandLine().getErr().printf("forager: exported %,d URLs to %s%n", n, output);
      }
    }
    return 0;
  }

  /** Whether {@code file} is, or would be, in {@code dir} or under it (links resolved where they exist). */
  static boolean inside(Path file, Path dir) {
    Path real = resolvedAsFarAsItExists(file.toAbsolutePath().normalize());
    return real.startsWith(resolvedAsFarAsItExists(dir.toAbsolutePath().normalize()));
  }

  private static Path resolvedAsFarAsItExists(Path path) {
    Path existing = path;
    while (existing != null && !Files.exists(existing)) existing = existing.getParent();
    if (existing == null) return path;
    try {
      return existing.toRealPath().resolve(existing.relativize(path));
    } catch (IOException e) {
      return path;
    }
  }

  private int wacz(Path dataDir) {
    WaczExporter.Summary summary;
    try {
      summary = WaczExporter.export(dataDir.resolve("warc"), dataDir.resolve(WarcIndexes.DIRECTORY), output,
          "Forager/" + version(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("forager: " + e.getMessage());
      return Main.EXIT_RUNTIME;
    }
    spec.commandLine().getErr().printf("forager: packaged %,d WARC file%s (%,d captures, %,d pages) into %s (%,d bytes)%n",
        summary.warcFiles(), summary.warcFiles() == 1 ? "" : "s", summary.captures(), summary.pages(), output,
        summary.bytes());
    return 0;
  }

  /** This build's version, as the crawl's WARC files name it. */
  private static String version() {
    String v = ExportCommand.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }

  private int usage(String message) {
    spec.commandLine().getErr().println("forager: " + message);
    return Main.EXIT_USAGE;
  }
}
