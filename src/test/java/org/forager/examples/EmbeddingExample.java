package org.forager.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.record.RunSummary;

/** The README's example of using Forager from Java code. */
public final class EmbeddingExample {

  private EmbeddingExample() {}

  /** Crawls {@code seed}, skipping URLs that contain "/private/", and returns each page's title. */
  public static Map<String, String> titles(String seed, Path dataDir) throws InterruptedException {
    CrawlConfig config = CrawlConfig.defaults()
        .withUserAgent("ExampleBot/1.0 (+https://example.org/bot.html)")
        .withSeeds(List.of(seed))
        .withDataDir(dataDir)
        .withMaxActions(1_000)
        .withPoliteness(new CrawlConfig.Politeness(Duration.ofMillis(100), Duration.ofSeconds(30), 10, Duration.ofHours(1)))
        .withNetwork(new CrawlConfig.Network(true)); // only because the example crawls 127.0.0.1

    Map<String, String> titles = new ConcurrentHashMap<>();
    try (Crawler crawler = Crawler.open(config)
        .quiet(true)
        .gate((url, depth) -> url.contains("/private/") ? Optional.of("no private pages") : Optional.empty())
        .onPage(page -> {
          String html = new String(page.body(), java.nio.charset.StandardCharsets.UTF_8);
          int start = html.indexOf("<title>");
          int end = html.indexOf("</title>");
          if (start >= 0 && end > start) titles.put(page.url(), html.substring(start + 7, end));
        })) {
      RunSummary summary = crawler.run();
      System.out.print(summary.render(Duration.ZERO));
    }
    return titles;
  }
}
