package org.forager.testweb;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.forager.config.ConfigLoader;
import org.forager.config.CrawlConfig;
import org.forager.config.Overrides;
import org.forager.audit.PolitenessAudit;
import org.forager.crawl.Crawler;
import org.forager.export.JsonlExporter;
import org.forager.record.CrawlLogFiles;
import org.forager.record.RunSummary;
import org.forager.store.RocksCrawlStore;
import org.forager.warc.WarcIndexes;

/** Runs a real crawl from a YAML configuration in a test's data directory, and reads its outputs. */
public final class TestCrawl {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TestCrawl() {}

  /**
   * The configuration tests start from: loopback allowed, short delays and timeouts, and whatever
   * extra YAML the test adds (top-level keys; a key given here replaces the default one).
   */
  public static CrawlConfig config(Path dataDir, List<String> seeds, String extraYaml) {
    StringBuilder yaml = new StringBuilder();
    yaml.append("user_agent: \"ForagerBot/0.1 (+https://example.org/bot)\"\n");
    yaml.append("data_dir: \"").append(dataDir).append("\"\n");
    if (!seeds.isEmpty()) yaml.append("seeds:\n");
    for (String seed : seeds) yaml.append("  - \"").append(seed).append("\"\n");
    if (!extraYaml.contains("politeness:")) {
      yaml.append("politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n");
    }
    if (!extraYaml.contains("network:")) yaml.append("network: { allow_private_addresses: true }\n");
    // No /sitemap.xml guess: tests count requests; sitemap tests turn it back on.
    if (!extraYaml.contains("sitemaps:")) yaml.append("sitemaps: { default_location: false }\n");
    if (!extraYaml.contains("limits:")) yaml.append("limits: { fetch_timeout: 2s, max_retries: 2 }\n");
    yaml.append(extraYaml).append('\n');
    try {
      Path file = Files.createTempFile(dataDir.getParent(), "forager", ".yaml");
      Files.writeString(file, yaml);
      return ConfigLoader.load(Optional.of(file), Overrides.none());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The {@code network} section that lets a crawl reach loopback and answers each of {@code hosts}
   * with 127.0.0.1: many host names on one machine, never /etc/hosts.
   */
  public static String pinnedToLoopback(String... hosts) {
    StringBuilder yaml = new StringBuilder("network: { allow_private_addresses: true, resolve: { ");
    for (int i = 0; i < hosts.length; i++) {
      yaml.append(i > 0 ? ", " : "").append('"').append(hosts[i]).append("\": \"127.0.0.1\"");
    }
    return yaml.append(" } }\n").toString();
  }

  /** Runs {@code crawler} on another thread, for a test that acts on it meanwhile; its summary once it ends. */
  public static CompletableFuture<RunSummary> runInBackground(Crawler crawler) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return crawler.run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** Runs the crawl, then proves from its log that it was polite (fails the test otherwise). */
  public static RunSummary run(CrawlConfig config) throws InterruptedException {
    RunSummary summary;
    try (Crawler crawler = Crawler.open(config)) {
      summary = crawler.run();
    }
    CrawlConfig.PerIp perIp = config.politeness().perIp();
    assertPolite(config.dataDir(), new PolitenessAudit.PerIp(perIp.maxInFlight(), perIp.minDelay().toMillis()));
    return summary;
  }

  /** Every WARC file is finished (none left {@code .open}) and reads to the end of its last record. */
  public static void assertWarcFilesFinishedAndReadable(Path dataDir) {
    try (var files = Files.list(dataDir.resolve("warc"))) {
      for (Path file : files.toList()) {
        if (!file.toString().endsWith(".warc.gz")) throw new AssertionError("WARC file left unfinished: " + file);
        try (var in = Files.newInputStream(file); var reader = new org.netpreserve.jwarc.WarcReader(in)) {
          for (var record : reader) record.body().consume();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every finished WARC file's index, as the crawl wrote it when it finished the file, is the one
   * {@link WarcIndexes#ensure} builds by reading the file back, byte for byte (the index is deleted
   * and rebuilt); fails if no file has an index.
   *
   * @return how many lines the indexes have in all
   */
  public static int assertIndexesAsReadBack(Path dataDir) {
    Path indexes = dataDir.resolve(WarcIndexes.DIRECTORY);
    int files = 0;
    int lines = 0;
    try (var warcs = Files.list(dataDir.resolve("warc"))) {
      for (Path warc : warcs.sorted().toList()) {
        Path index = WarcIndexes.indexOf(indexes, warc);
        if (WarcIndexes.formatOf(warc.getFileName().toString()).isEmpty() || !Files.exists(index)) continue;
        byte[] written = Files.readAllBytes(index);
        Files.delete(index);
        byte[] readBack = Files.readAllBytes(WarcIndexes.ensure(indexes, warc));
        if (!Arrays.equals(written, readBack)) {
          throw new AssertionError("index of " + warc + " written at finish:\n" + new String(written, UTF_8)
              + "read back:\n" + new String(readBack, UTF_8));
        }
        files++;
        lines += (int) new String(written, UTF_8).lines().count();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (files == 0) throw new AssertionError("no WARC file of " + dataDir + " has an index");
    return lines;
  }

  public static void assertPolite(Path dataDir) {
    assertPolite(dataDir, PolitenessAudit.PerIp.DEFAULTS);
  }

  /** Like {@link #assertPolite(Path)}, for a crawl with these {@code politeness.per_ip} settings. */
  public static void assertPolite(Path dataDir, PolitenessAudit.PerIp perIp) {
    PolitenessAudit.Report report = PolitenessAudit.audit(dataDir.resolve("logs/crawl.jsonl"), perIp);
    if (!report.polite()) throw new AssertionError("the crawl log shows impoliteness: " + report.violations());
  }

  /** The crawl log's lines, parsed: its finished parts (gzipped or not) in order, then the live file. */
  public static List<JsonNode> log(Path dataDir) {
    List<JsonNode> lines = new java.util.ArrayList<>();
    try {
      for (Path part : CrawlLogFiles.parts(dataDir.resolve("logs/crawl.jsonl"))) {
        try (java.io.BufferedReader reader = CrawlLogFiles.open(part)) {
          for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lines.add(parse(line));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException("bad crawl log line: " + line, e);
    }
  }

  /** The outcome of the last action logged for a URL. */
  /** What {@code forager export} writes of the crawl in {@code dataDir} (embedded store), by URL. */
  public static Map<String, JsonNode> export(Path dataDir) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RocksCrawlStore store = RocksCrawlStore.open(dataDir.resolve("store"))) {
      JsonlExporter.export(store, out);
    }
    ObjectMapper json = new ObjectMapper();
    Map<String, JsonNode> byUrl = new HashMap<>();
    for (String line : out.toString(UTF_8).split("\n")) {
      JsonNode node = json.readTree(line);
      byUrl.put(node.get("url").asText(), node);
    }
    return byUrl;
  }

  public static String lastOutcome(Path dataDir, String url) {
    String outcome = null;
    for (JsonNode line : log(dataDir)) {
      if (line.get("url").asText().equals(url)) outcome = line.get("outcome").asText();
    }
    return outcome;
  }
}
