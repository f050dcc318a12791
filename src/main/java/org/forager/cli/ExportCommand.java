package org.forager.cli;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.forager.export.JsonlExporter;
import org.forager.store.CrawlStore;
import org.forager.store.RocksCrawlStore;
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

  @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The crawl's data directory.")
  Path dataDir;

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
    Path storeDir = dataDir.resolve("store");
    if (!Files.isDirectory(storeDir)) {
      spec.commandLine().getErr().println("forager: " + dataDir + " holds no crawl (no " + storeDir + ")");
      return Main.EXIT_USAGE;
    }
    try (CrawlStore store = RocksCrawlStore.open(storeDir)) {
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
