package org.forager.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.forager.audit.PolitenessAudit;
import org.forager.config.ConfigException;
import org.forager.config.ConfigLoader;
import org.forager.config.CrawlConfig;
import org.forager.config.Durations;
import org.forager.config.Overrides;
import org.forager.record.CrawlLogFiles;
import org.forager.url.Origin;
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
      "Checks a crawl's log for politeness: one request in flight, delays kept, robots.txt first.",
      "",
      "Reads the crawl log of a crawl (logs/crawl.jsonl and its rotated crawl-*.jsonl.gz parts, in",
      "order) and checks, origin by origin, that no two requests were in",
      "flight at once, that every gap kept the delay in force, that nothing came before the end of a",
      "wait the server asked for (Retry-After), and that robots.txt came first; and,",
      "IP address by IP address, the crawl's politeness.per_ip limits (from --config, or the configuration",
      "the crawl's last run was started with; the flags below override them).",
      "Prints one line per origin and every violation; exits 3 if there is any.",
    })
final class AuditCommand implements Callable<Integer> {

  static final int EXIT_VIOLATIONS = 3;

  @Spec CommandSpec spec;

  @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The crawl's data directory.")
  Path dataDir;

  @Option(names = "--quiet", description = "Print only the violations and the verdict.")
  boolean quiet;

  @Option(names = "--config", paramLabel = "FILE", description = "The crawl's configuration, for its "
      + "politeness.per_ip limits (default: the one the crawl's last run was started with, if any).")
  Path config;

  @Option(names = "--per-ip-max-in-flight", paramLabel = "N",
      description = "The crawl's politeness.per_ip.max_in_flight, over the configuration's (default 1).")
  Integer perIpMaxInFlight;

  @Option(names = "--per-ip-min-delay", paramLabel = "DURATION",
      description = "The crawl's politeness.per_ip.min_delay, e.g. 500ms, over the configuration's (default 0).")
  String perIpMinDelay;

  @Override
  public Integer call() {
    Path log = dataDir.resolve("logs").resolve("crawl.jsonl");
    if (!hasLog(log)) {
      spec.commandLine().getErr().println("forager: " + dataDir + " has no crawl log (no " + log + ")");
      return Main.EXIT_USAGE;
    }
    if (perIpMaxInFlight != null && perIpMaxInFlight < 1) {
      spec.commandLine().getErr().println("forager: --per-ip-max-in-flight: must be at least 1, got " + perIpMaxInFlight);
      return Main.EXIT_USAGE;
    }
    PrintWriter out = spec.commandLine().getOut();
    // The limits the crawl ran with: a crawl allowed 16 requests in flight per address is no violation at 2.
    CrawlConfig.PerIp configured;
    CrawlConfig crawlConfig;
    try {
      Optional<Path> file = Optional.ofNullable(config);
      if (file.isEmpty()) {
        try {
          file = LastRunConfig.recorded(dataDir);
        } catch (LastRunConfig.Unreadable e) {
          out.printf("note: the crawl's last run used --config %s, which cannot be read now: the per-IP limits are"
              + " the defaults unless given (--config, --per-ip-max-in-flight, --per-ip-min-delay), and domains its"
              + " sites rules made one unit are not checked as one (--config)%n", e.config);
        }
      }
      crawlConfig = file.map(f -> ConfigLoader.load(Optional.of(f),
          new Overrides(List.of(), Optional.empty(), Optional.of(dataDir), Optional.empty())))
          .orElse(CrawlConfig.defaults());
      configured = crawlConfig.politeness().perIp();
    } catch (ConfigException e) {
      spec.commandLine().getErr().println("forager: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    PolitenessAudit.PerIp perIp;
    try {
      perIp = new PolitenessAudit.PerIp(perIpMaxInFlight != null ? perIpMaxInFlight : configured.maxInFlight(),
          perIpMinDelay != null ? Durations.parse(perIpMinDelay).toMillis() : configured.minDelay().toMillis());
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("forager: --per-ip-min-delay: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    // The domains its sites rules made one unit (unit: domain), and each origin's min_delay, as the
    // crawl's configuration has them.
    PolitenessAudit.Report report = PolitenessAudit.audit(log, perIp, new PolitenessAudit.Sites(
        origin -> crawlConfig.siteSettings(Origin.ofUrl(origin + "/")).domainUnit()
            .map(u -> new PolitenessAudit.DomainUnit(u.domain(), u.minDelay().toMillis())),
        origin -> crawlConfig.siteSettings(Origin.ofUrl(origin + "/")).politeness().minDelay().toMillis()));
    if (!quiet) {
      out.printf("%-40s %9s %7s %9s %12s %10s%n", "origin", "requests", "robots", "refusals", "min gap ms", "in flight");
      for (PolitenessAudit.OriginReport o : report.origins()) {
        out.printf("%-40s %9d %7d %9d %12s %10d%n", o.origin(), o.requests(), o.robotsRequests(), o.refusals(),
            gap(o.minGapMillis()), o.maxInFlight());
      }
    }
    if (!quiet && !report.ips().isEmpty()) {
      out.printf("%-40s %9s %7s %12s %10s%n", "ip address", "requests", "origins", "min gap ms", "in flight");
      for (PolitenessAudit.IpReport ip : report.ips()) {
        out.printf("%-40s %9d %7d %12s %10d%n", ip.ip(), ip.requests(), ip.origins(), gap(ip.minGapMillis()),
            ip.maxInFlight());
      }
    }
    if (!quiet && !report.domains().isEmpty()) {
      out.printf("%-40s %9s %7s %12s %10s%n", "domain (one unit)", "requests", "origins", "min gap ms", "in flight");
      for (PolitenessAudit.IpReport d : report.domains()) {
        out.printf("%-40s %9d %7d %12s %10d%n", d.ip(), d.requests(), d.origins(), gap(d.minGapMillis()), d.maxInFlight());
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
    out.printf("%s: %,d requests to %,d origins in %,d log lines, %,d violations (per-IP limits: %d in flight, %d ms"
        + " apart)%n", report.polite() ? "POLITE" : "NOT POLITE", report.requests(),
        report.origins().stream().filter(o -> o.requests() > 0).count(), report.lines(), report.violations().size(),
        perIp.maxInFlight(), perIp.minDelayMillis());
    out.flush();
    return report.polite() ? 0 : EXIT_VIOLATIONS;
  }

  /** A gap in milliseconds; "-" where there was none to measure (fewer than two requests). */
  private static String gap(double millis) {
    return Double.isNaN(millis) ? "-" : String.format("%.1f", millis);
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
