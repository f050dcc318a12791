package org.forager.bench.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs a synthetic web from the command line, for benchmark scripts. The command line, the output
 * lines and the files are a stable contract:
 *
 * <pre>
 * java -cp target/test-classes org.forager.bench.web.SyntheticWeb
 *     [--hosts H] [--pages P] [--latency-ms L] [--port PORT]
 *     [--seeds-file FILE] [--audit-file FILE] [--log-file FILE] [--stop-on-eof]
 * </pre>
 *
 * <ul>
 *   <li>{@code --hosts H} (default 100, at most 64000): host i listens on 127.1.(i/250).(i%250+1),
 *       so 127.1.0.1, 127.1.0.2, ... on {@code --port} (default 8080). Nothing else is bound.
 *   <li>{@code --pages P} (default 100): pages {@code /} and {@code /p/1.html} ..
 *       {@code /p/(P-1).html} per host, about 30 KB of HTML with 40 links each; robots.txt
 *       disallows {@code /private/}; anything else is 404.
 *   <li>{@code --latency-ms L} (default 0): every response starts L ms after its request arrived.
 *   <li>{@code --seeds-file FILE}: written before the ready line, one {@code http://ADDRESS:PORT/}
 *       line per host, in host order.
 *   <li>{@code --audit-file FILE}: written when the server stops: the audit totals as a JSON object
 *       in FILE, and one CSV line per host in FILE without its {@code .json} suffix plus
 *       {@code -hosts.csv} ({@code audit.json} gives {@code audit-hosts.csv}). See {@link Audit}.
 *   <li>{@code --log-file FILE}: written when the server stops: every request as CSV
 *       ({@link RequestLog#writeCsv}).
 *   <li>{@code --stop-on-eof}: also stop when standard input reaches its end (off by default, since
 *       a background job's standard input is often /dev/null).
 * </ul>
 *
 * <p>Standard output: once every address is bound and the seeds file is written, exactly one line
 * {@code READY hosts=H pages=P port=PORT latency_ms=L first=127.1.0.1 last=ADDRESS started_ms=T}, where T
 * is when the server started in ms since the epoch: the origin of the log file's times, so a script
 * can place its own clock readings in the log; when it stops,
 * the audit files are written, then {@code AUDIT requests=N pages=N distinct_pages=N coverage=F
 * private=N max_in_flight=N min_interval_ms=F} and {@code STOPPED}. Wait for {@code READY} before
 * crawling, and for {@code STOPPED} (or the process's exit) before reading the audit.
 *
 * <p>Stopping: SIGTERM or SIGINT (exit status 143 or 130, from the JVM), or end of standard input
 * with {@code --stop-on-eof} (exit status 0). Exit status 2 on bad usage, 1 when an address cannot
 * be bound (one line on standard error naming the address).
 */
public final class SyntheticWeb {

  private SyntheticWeb() {}

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("synthetic-web: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    if (options.help) {
      System.out.println(USAGE);
      return;
    }
    SyntheticWebServer server;
    try {
      server = SyntheticWebServer.start(options.config);
    } catch (IOException e) {
      System.err.println("synthetic-web: " + e.getMessage());
      System.exit(1);
      return;
    }
    Thread stopper = new Thread(() -> stop(server, options), "synthetic-web-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    if (options.seedsFile.isPresent()) writeSeeds(options.seedsFile.get(), options.config);
    WebConfig c = options.config;
    System.out.println("READY hosts=" + c.hosts() + " pages=" + c.pages() + " port=" + c.port()
        + " latency_ms=" + c.latency().toMillis() + " first=" + Hosts.address(0) + " last="
        + Hosts.address(c.hosts() - 1) + " started_ms=" + startedEpochMillis(server));
    System.out.flush();
    if (options.stopOnEof) {
      Thread watcher = new Thread(() -> {
        drain(System.in);
        System.exit(0);
      }, "synthetic-web-stdin");
      watcher.setDaemon(true);
      watcher.start();
    }
    server.awaitStop();
  }

  private static final String USAGE = "usage: SyntheticWeb [--hosts H] [--pages P] [--latency-ms L] "
      + "[--port PORT] [--seeds-file FILE] [--audit-file FILE] [--log-file FILE] [--stop-on-eof]";

  private static void stop(SyntheticWebServer server, Options options) {
    server.close();
    RequestLog log = server.log().snapshot(System.nanoTime());
    Audit audit = Audit.of(log, server.config());
    try {
      if (options.auditFile.isPresent()) {
        Path json = options.auditFile.get();
        Files.writeString(json, audit.toJson());
        try (Writer w = Files.newBufferedWriter(hostsCsv(json))) {
          audit.writeHostsCsv(w, server.startNanos());
        }
      }
      if (options.logFile.isPresent()) {
        try (Writer w = Files.newBufferedWriter(options.logFile.get())) {
          log.writeCsv(w, server.startNanos());
        }
      }
    } catch (IOException e) {
      System.err.println("synthetic-web: cannot write the audit: " + e.getMessage());
    }
    System.out.println(audit.summaryLine());
    System.out.println("STOPPED");
    System.out.flush();
  }

  /** When the server started ({@link SyntheticWebServer#startNanos()}) on the wall clock, in ms since the epoch. */
  static long startedEpochMillis(SyntheticWebServer server) {
    return System.currentTimeMillis() - (System.nanoTime() - server.startNanos()) / 1_000_000;
  }

  /** {@code audit.json} gives {@code audit-hosts.csv}; another name gets {@code -hosts.csv} appended. */
  static Path hostsCsv(Path auditFile) {
    String name = auditFile.getFileName().toString();
    String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
    return auditFile.resolveSibling(base + "-hosts.csv");
  }

  private static void writeSeeds(Path file, WebConfig config) throws IOException {
    StringBuilder seeds = new StringBuilder();
    for (int h = 0; h < config.hosts(); h++) seeds.append(config.origin(h)).append("/\n");
    Files.writeString(file, seeds, StandardCharsets.UTF_8);
  }

  private static void drain(InputStream in) {
    byte[] buf = new byte[4096];
    try {
      while (in.read(buf) >= 0) {
        // Input is ignored; only its end matters.
      }
    } catch (IOException e) {
      // An unreadable stdin counts as its end.
    }
  }

  /** The parsed command line. */
  static final class Options {
    WebConfig config;
    Optional<Path> seedsFile = Optional.empty();
    Optional<Path> auditFile = Optional.empty();
    Optional<Path> logFile = Optional.empty();
    boolean stopOnEof;
    boolean help;

    static Options parse(String[] args) {
      Options o = new Options();
      int hosts = 100;
      int pages = 100;
      int port = 8080;
      long latencyMs = 0;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--hosts" -> hosts = number(a, value(args, ++i, a));
          case "--pages" -> pages = number(a, value(args, ++i, a));
          case "--port" -> port = number(a, value(args, ++i, a));
          case "--latency-ms" -> latencyMs = number(a, value(args, ++i, a));
          case "--seeds-file" -> o.seedsFile = Optional.of(Path.of(value(args, ++i, a)));
          case "--audit-file" -> o.auditFile = Optional.of(Path.of(value(args, ++i, a)));
          case "--log-file" -> o.logFile = Optional.of(Path.of(value(args, ++i, a)));
          case "--stop-on-eof" -> o.stopOnEof = true;
          case "--help", "-h" -> o.help = true;
          default -> throw new IllegalArgumentException("unknown option: " + a);
        }
      }
      o.config = new WebConfig(hosts, pages, port, Duration.ofMillis(latencyMs));
      return o;
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) throw new IllegalArgumentException(option + " needs a value");
      return args[i];
    }

    private static int number(String option, String value) {
      try {
        return Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " must be a number: " + value);
      }
    }
  }
}
