package org.forager.cli;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import org.forager.export.JsonlExporter;
import org.forager.export.WaczExporter;
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
    description = {
      "Writes one JSON object per known URL (see docs/ for the fields) to standard output or --output;",
      "with --format wacz, packages the finished WARC files as a WACZ file (--output FILE.wacz) for",
      "replay tools such as ReplayWeb.page (docs/warc.md).",
    })
final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin StoreOption storeOption;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl",
      description = "jsonl (default): the URLs; wacz: the WARC files as a WACZ package.")
  String format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of standard output.")
  Path output;

  @Override
  public Integer call() throws Exception {
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
    if (format.equals("wacz")) return wacz(cfg.dataDir());
    try (CrawlStore store = storeOption.open(cfg)) {
      if (output == null) {
        OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
        JsonlExporter.export(store, out);
        out.flush();
      } else {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
          long n = JsonlExporter.export(store, out);
          spec.commandLine().getErr().printf("forager: exported %,d URLs to %s%n", n, output);
        }
      }
    }
    return 0;
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
    spec.commandLine().getErr().printf("forager: packaged %,d WARC files (%,d captures, %,d pages) into %s (%,d bytes)%n",
        summary.warcFiles(), summary.captures(), summary.pages(), output, summary.bytes());
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
