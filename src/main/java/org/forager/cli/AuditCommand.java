package org.forager.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.forager.audit.PolitenessAudit;
import org.forager.config.Durations;
import org.forager.record.CrawlLogFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code forager audit}: proves from the crawl log that the crawl was polite. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Checks a crawl's log for politeness: one request in flight, every delay kept, robots.txt first.",
      "",
      "Reads the crawl log of a crawl (logs/crawl.jsonl and its rotated crawl-*.jsonl.gz parts, in",
      "order) and checks, origin by origin, that no two requests were in",
      "flight at once, that every gap kept the delay in force, and that robots.txt came first; and,",
      "IP address by IP address, the crawl's politeness.per_ip limits (give them if not the defaults).",
      "Prints one line per origin and every violation; exits 3 if there is any.",
    })
final class AuditCommand implements Callable<Integer> {

  static final int EXIT_VIOLATIONS = 3;

  @Spec CommandSpec spec;

  @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The crawl's data directory.")
  Path dataDir;

  @Option(names = "--quiet", description = "Print only the violations and the verdict.")
  boolean quiet;

  @Option(names = "--per-ip-max-in-flight", paramLabel = "N", defaultValue = "1",
      description = "The crawl's politeness.per_ip.max_in_flight (default: ${DEFAULT-VALUE}).")
  int perIpMaxInFlight;

  @Option(names = "--per-ip-min-delay", paramLabel = "DURATION", defaultValue = "0",
      description = "The crawl's politeness.per_ip.min_delay, e.g. 500ms (default: ${DEFAULT-VALUE}).")
  String perIpMinDelay;

  @Override
  public Integer call() {
    Path log = dataDir.resolve("logs").resolve("crawl.jsonl");
    if (!hasLog(log)) {
      spec.commandLine().getErr().println("forager: " + dataDir + " has no crawl log (no " + log + ")");
      return Main.EXIT_USAGE;
    }
    if (perIpMaxInFlight < 1) {
      spec.commandLine().getErr().println("forager: --per-ip-max-in-flight: must be at least 1, got " + perIpMaxInFlight);
      return Main.EXIT_USAGE;
    }
    PolitenessAudit.PerIp perIp;
    try {
      perIp = new PolitenessAudit.PerIp(perIpMaxInFlight, Durations.parse(perIpMinDelay).toMillis());
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("forager: --per-ip-min-delay: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    PolitenessAudit.Report report = PolitenessAudit.audit(log, perIp);
    PrintWriter out = spec.commandLine().getOut();
    if (!quiet) {
      out.printf("%-40s %9s %7s %9s %12s %10s%n", "origin", "requests", "robots", "refusals", "min gap ms", "in flight");
      for (PolitenessAudit.OriginReport o : report.origins()) {
        out.printf("%-40s %9d %7d %9d %12.1f %10d%n", o.origin(), o.requests(), o.robotsRequests(), o.refusals(),
            o.minGapMillis(), o.maxInFlight());
      }
    }
    if (!quiet && !report.ips().isEmpty()) {
      out.printf("%-40s %9s %7s %12s %10s%n", "ip address", "requests", "origins", "min gap ms", "in flight");
      for (PolitenessAudit.IpReport ip : report.ips()) {
        out.printf("%-40s %9d %7d %12.1f %10d%n", ip.ip(), ip.requests(), ip.origins(), ip.minGapMillis(),
            ip.maxInFlight());
      }
    }
    for (PolitenessAudit.Violation v : report.violations()) {
      out.printf("VIOLATION %s line %d %s: %s: %s%n", v.file(), v.line(), v.origin(), v.rule(), v.detail());
    }
    report.expired().ifPresent(e -> out.printf("note: log.keep deleted %,d earlier part%s of the log (the last line gone "
        + "written %s): the audit reads what is left%s%n", e.parts(), e.parts() == 1 ? "" : "s", e.lastLine(),
        report.unjudged() == 0 ? "" : String.format("; the first requests of %,d origin%s, pages, could not be checked "
            + "for robots.txt first (their robots.txt fetch may be in a deleted part)", report.unjudged(),
            report.unjudged() == 1 ? "" : "s")));
    out.printf("%s: %,d requests to %,d origins in %,d log lines, %,d violations%n",
        report.polite() ? "POLITE" : "NOT POLITE", report.requests(), report.origins().size(), report.lines(),
        report.violations().size());
    out.flush();
    return report.polite() ? 0 : EXIT_VIOLATIONS;
  }

  /** Whether the live file or any finished part of the log is there. */
  private static boolean hasLog(Path live) {
    try {
      return !CrawlLogFiles.parts(live).isEmpty();
    } catch (java.io.IOException e) {
      return Files.isRegularFile(live);
    }
  }
}
