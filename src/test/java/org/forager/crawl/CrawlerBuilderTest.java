package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.forager.config.CrawlConfig;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Fetcher;
import org.forager.fetch.HttpFetcher;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code Crawler.builder}: the HTTP seam open to an embedding application (issue 14). */
@Timeout(60)
class CrawlerBuilderTest {

  @TempDir Path tmp;

  @Test
  void aCrawlFetchesThroughTheFetcherItIsGivenAndClosesIt() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").linking("/a");
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")), "");
      List<String> seen = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean closed = new AtomicBoolean();
      Fetcher http = new HttpFetcher(HttpFetcher.Options.from(config, HttpFetcher.Options.dnsCache(config)));
      Fetcher counting = new Fetcher() {
        @Override
        public FetchResult fetch(FetchRequest request) {
          seen.add(request.url());
          return http.fetch(request);
        }

        @Override
        public void close() {
          closed.set(true);
          http.close();
        }
      };
      try (Crawler crawler = Crawler.builder(config).fetcher(counting).open()) {
        crawler.quiet(true).run();
      }
      assertEquals(List.of(site.url("/robots.txt"), site.url("/"), site.url("/a")), seen);
      assertEquals(List.of("/robots.txt", "/", "/a"), site.paths());
      assertEquals(true, closed.get(), "the crawler closes the fetcher it was given");
      TestCrawl.assertPolite(config.dataDir());
    }
  }
}
