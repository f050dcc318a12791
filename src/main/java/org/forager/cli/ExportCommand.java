package org.forager.cli;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.forager.export.JsonlExporter;
import org.forager.store.CrawlStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code forager export}: the crawl database as JSON lines. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Writes one JSON object per known URL (see docs/ for the fields) to standard output or --output.",
    })
final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin StoreOption storeOption;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl", description = "Only jsonl for now.")
  String format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of standard output.")
  Path output;

  @Override
  public Integer call() throws Exception {
    if (!format.equals("jsonl")) {
      spec.commandLine().getErr().println("forager: --format " + format + " is not supported (use jsonl)");
      return Main.EXIT_USAGE;
    }
    org.forager.config.CrawlConfig cfg;
    try {
      cfg = storeOption.resolve();
    } catch (StoreOption.UsageError | org.forager.config.ConfigException e) {
      spec.commandLine().getErr().println("forager: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
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
}
