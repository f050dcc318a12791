package org.forager.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.record.TerminalText;
import org.forager.status.ControlFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code forager ctl}: gives an order to the crawl running on a data directory, through its control
 * API (the address and token in {@code DIR/control.json}; docs/status.md, "Control").
 */
@Command(
    name = "ctl",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Gives an order to the crawl running on --data-dir, from another terminal as its user.",
      "",
      "Orders:",
      "  pause [ORIGIN]            no new request starts (fetches in flight finish); or only ORIGIN's",
      "  resume [ORIGIN]           go on where it paused",
      "  block HOST_OR_DOMAIN      no further request of any kind to it or a host under it, at once and",
      "                            in every later run (kept in the crawl database)",
      "  unblock HOST_OR_DOMAIN    lift a block",
      "  set-delay ORIGIN DURATION this origin's delay for the rest of the run (e.g. 5s; never below its",
      "                            robots.txt Crawl-delay); 'default' goes back to the configured one",
      "  add-seed URL...           add seeds (each through the scope and every other gate)",
      "  retry-failed [HOST_OR_DOMAIN]",
      "                            make the URLs whose last request failed (no answer, timeout, DNS, an",
      "                            HTTP error but 404/410) due now instead of after their back-off",
      "                            (2, 4, 8 weeks)",
      "  recrawl [HOST_OR_DOMAIN]  make every URL crawled before due now, whatever its recrawl interval",
      "  stop                      end the run after the fetches in flight, as SIGTERM does",
      "",
      "Every order is written to the crawl log (kind \"control\", by \"cli\").",
    },
    footer = {
      "",
      "Examples:",
      "  forager ctl --data-dir crawl-data block example.org",
      "  forager ctl --data-dir crawl-data set-delay https://www.example.org 10s",
      "  forager ctl --data-dir crawl-data pause",
      "",
      "block, unblock, retry-failed and recrawl work with no crawl running too: on the crawl database.",
      "Exit status: 0 when the crawl carried out the order, 1 when no crawl runs there or it refused,",
      "2 on bad usage.",
    })
final class CtlCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "The crawl's data directory (block and unblock need no running crawl).")
  Path dataDir;

  @Parameters(index = "0", paramLabel = "ORDER", description = "pause, resume, block, unblock, set-delay, add-seed, retry-failed, recrawl or stop")
  String order;

  @Parameters(index = "1..*", paramLabel = "ARG", description = "The order's arguments.")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    ObjectNode body;
    try {
      body = body();
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    }
    if (!java.nio.file.Files.isDirectory(dataDir)) {
      // Not "no crawl is running": a mistyped path; and an order kept in the database would make a new one.
      return fail("no data directory " + dataDir + " (--data-dir names the crawl's data_dir)");
    }
    Optional<ControlFile> file;
    try {
      file = ControlFile.read(dataDir);
    } catch (ControlFile.CopiedException e) {
      if (worksWithoutACrawl()) return withoutACrawl();
      return fail(TerminalText.escape(e.getMessage()));
    } catch (IOException e) {
      return fail(TerminalText.escape(e.getMessage()));
    }
    if (file.isEmpty()) {
      // A block holds across runs, so it is given and lifted between them too: in the database itself.
      if (worksWithoutACrawl()) return withoutACrawl();
      return fail("no crawl is running on " + dataDir + " (no " + ControlFile.in(dataDir) + ")");
    }
    return send(file.get(), body);
  }

  /** Orders carried out on the crawl database itself when no crawl runs: they hold across runs. */
  private boolean worksWithoutACrawl() {
    return order.equals("block") || order.equals("unblock") || order.equals("retry-failed") || order.equals("recrawl");
  }

  /**
   * Blocks or unblocks a host, or makes failed URLs due, in the crawl database of a crawl that is not
   * running (logged as when it runs).
   */
  private int withoutACrawl() {
    String host = args.isEmpty() ? null : args.get(0);
    CrawlConfig cfg;
    try {
      cfg = StoreOption.resolve(Optional.empty(), Optional.of(dataDir));
    } catch (StoreOption.UsageError e) {
      return fail("no crawl is running on " + dataDir + ", and " + e.getMessage());
    }
    String message;
    try (Crawler crawler = Crawler.builder(cfg).forControlOnly().open()) {
      if (order.equals("retry-failed")) {
        long due = crawler.control().retryFailed(Optional.ofNullable(host), "cli");
        message = org.forager.crawl.CrawlControl.retryAnswer(due, Optional.ofNullable(host));
      } else if (order.equals("recrawl")) {
        long due = crawler.control().recrawl(Optional.ofNullable(host), "cli");
        message = org.forager.crawl.CrawlControl.recrawlAnswer(due, Optional.ofNullable(host));
      } else if (order.equals("block")) {
        boolean already = crawler.control().blockOf(host).isPresent();
        String blocked = crawler.control().block(host, "cli");
        message = "blocked " + blocked + org.forager.crawl.CrawlControl.alsoBlocked(blocked)
            + (already ? " (it was blocked already)" : "") + ": no request of any kind from the next run on";
      } else {
        message = crawler.control().unblock(host, "cli") ? "unblocked " + host : host + " was not blocked";
      }
    } catch (IllegalArgumentException e) {
      return usage(TerminalText.escape(e.getMessage()));
    }
    PrintWriter out = spec.commandLine().getOut();
    // An embedded store's lock was free: no crawl runs on it. A PostgreSQL one has none to tell: a fleet
    // may be running (its control API out of reach from here), and reads the blocks every 5 s.
    out.println(TerminalText.escape(message) + (cfg.store().kind().equals("postgres")
        ? " (written to the crawl database, where every process of a running fleet reads it within 5 s)"
        : " (no crawl is running: written to its database)"));
    out.flush();
    return 0;
  }

  /** The order's JSON body, from the arguments. */
  private ObjectNode body() {
    ObjectNode body = JSON.createObjectNode();
    switch (order) {
      case "pause", "resume" -> {
        arguments(0, 1, "[ORIGIN]");
        if (!args.isEmpty()) body.put("origin", args.get(0));
      }
      case "block", "unblock" -> body.put("host", arguments(1, 1, "HOST_OR_DOMAIN").get(0));
      case "set-delay" -> {
        List<String> a = arguments(2, 2, "ORIGIN DURATION");
        // Said here, without a crawl to ask: the crawl's answer would be the same.
        if (!a.get(1).equals("default")) org.forager.config.Durations.parse(a.get(1));
        body.put("origin", a.get(0));
        body.put("delay", a.get(1));
      }
      case "add-seed" -> {
        var urls = body.putArray("urls");
        arguments(1, Integer.MAX_VALUE, "URL...").forEach(urls::add);
      }
      case "retry-failed", "recrawl" -> {
        arguments(0, 1, "[HOST_OR_DOMAIN]");
        if (!args.isEmpty()) body.put("host", args.get(0));
      }
      case "stop" -> arguments(0, 0, "");
      default -> throw new IllegalArgumentException((order.startsWith("-") ? "unknown option '" : "unknown order '")
          + TerminalText.escape(order)
          + "': pause, resume, block, unblock, set-delay, add-seed, retry-failed, recrawl or stop");
    }
    return body;
  }

  private List<String> arguments(int min, int max, String shape) {
    if (args.size() < min || args.size() > max) {
      throw new IllegalArgumentException(order + " takes " + (shape.isEmpty() ? "no arguments" : shape));
    }
    return args;
  }

  private int send(ControlFile file, ObjectNode body) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> response;
    try {
      HttpRequest request = HttpRequest.newBuilder(file.url().resolve("api/control/" + order))
          .timeout(Duration.ofSeconds(15))
          .header("Authorization", "Bearer " + file.token())
          .header("Content-Type", "application/json")
          .header("X-Forager-Client", "cli")
          .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
          .build();
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      // Left by a crawl that was killed: a block, which holds across runs, goes to the database itself
      // (what matters most after a crash). Should the crawl still run, deaf, its lock says so.
      if (worksWithoutACrawl()) return withoutACrawl();
      return fail("no crawl is running on " + dataDir + ": nothing answers at " + file.url() + " ("
          + ControlFile.in(dataDir) + " is left from a crawl that did not exit cleanly)");
    } catch (HttpTimeoutException e) {
      return fail("the crawl at " + file.url() + " did not answer in time");
    } catch (IOException e) {
      return fail("cannot reach the crawl at " + file.url() + ": " + TerminalText.escape(String.valueOf(e.getMessage())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail("interrupted");
    }
    JsonNode answer;
    try {
      answer = JSON.readTree(response.body());
    } catch (IOException e) {
      answer = JSON.createObjectNode();
    }
    int status = response.statusCode();
    if (status == 401) {
      return fail("the crawl at " + file.url() + " refused the token in " + ControlFile.in(dataDir)
          + " (stale: is it another crawl's?)");
    }
    if (status != 200) {
      String error = TerminalText.escape(answer.path("error").asText("HTTP " + status));
      return status == 400 ? usage(error) : fail(error);
    }
    PrintWriter out = spec.commandLine().getOut();
    answer.path("message").asText("done").lines().forEach(line -> out.println(TerminalText.escape(line)));
    out.flush();
    // An add-seed the crawl refused, for one URL or more, is an order not carried out.
    for (JsonNode seed : answer.path("seeds")) {
      if (seed.path("result").asText().startsWith("refused")) return Main.EXIT_RUNTIME;
    }
    return 0;
  }

  private int fail(String message) {
    spec.commandLine().getErr().println("forager: " + message);
    return Main.EXIT_RUNTIME;
  }

  private int usage(String message) {
    spec.commandLine().getErr().println("forager: " + message);
    return Main.EXIT_USAGE;
  }
}
