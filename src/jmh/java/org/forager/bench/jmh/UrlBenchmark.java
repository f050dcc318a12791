package org.forager.bench.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.forager.url.UrlFingerprint;
import org.forager.url.UrlNormalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * URLs per second through {@link UrlNormalizer#resolve} (the 40 hrefs of the synthetic page against
 * its URL: relative, dot segments, absolute, scheme-relative, escapes, whitespace, non-http) and
 * {@link UrlNormalizer#normalize} (40 absolute URLs, half already normalized, half not), and
 * {@link UrlFingerprint#of} (those 40 URLs: a page's links are fingerprinted about once each by the
 * crawl's tables of crawled URLs).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class UrlBenchmark {

  private static final int URLS = 40;

  private List<String> hrefs;
  private List<String> absolute;

  @Setup
  public void setUp() {
    hrefs = SyntheticSite.decodedHrefs();
    absolute = List.of(
        "https://www.example.org/", "https://www.example.org/news/world/",
        "https://www.example.org/news/2026/11/climate-talks-1234.html",
        "https://www.example.org/search?q=&lang=en", "https://www.example.org/topics/carbon%20markets",
        "https://static.example.org/docs/agreement-text.pdf", "https://data.example.com/emissions?country=all",
        "http://www.example.org/archive/2019/climate", "https://unfccc.example.int/documents/cop31-decision",
        "https://www.other-news.example/2026/11/21/talks", "https://www.example.org/video/1234-summary",
        "https://www.example.org/about/", "https://www.example.org:8443/intranet/",
        "https://www.example.org/account/login?return=%2Fnews%2F", "https://www.example.org/tags/caf%C3%A9",
        "https://www.example.org/a/b/c/d/e/f/g/h.html", "https://www.example.org/news/?page=2",
        "https://203.0.113.7/status", "https://www.example.org/science/environment/",
        "https://www.example.org/news/2025/12/summit-preview-0456.html",
        "HTTPS://WWW.EXAMPLE.ORG/News/", "https://www.example.org:443/news/world/#top",
        "http://www.example.org:80/archive/./2019/../2020/", "https://user:secret@www.example.org/private",
        "https://www.example.org/topics/%7eenergy/%41%42", "https://www.example.org/search?",
        "https://www.Example.ORG/a/../b/./c", "https://www.example.org/%e2%82%ac/price",
        "https://bücher.example/katalog", "  https://www.example.org/padded  ",
        "https://www.example.org/path with space", "https://www.example.org\\news\\backslash",
        "https://www.example.org/news/2026/11/climate-talks-1234.html#comments",
        "https://[2001:db8::1]/v6", "https://0x7f.1/hex-ip", "https://www.example.org./trailing-dot",
        "https://www.example.org/q?a=1&b=%zz", "mailto:newsroom@example.org", "ftp://ftp.example.org/",
        "https://www.example.org/" + "deep/".repeat(20) + "page.html");
    if (hrefs.size() != URLS || absolute.size() != URLS) throw new IllegalStateException("expected " + URLS + " URLs");
  }

  @Benchmark
  @OperationsPerInvocation(URLS)
  public void resolve(Blackhole blackhole) {
    for (String href : hrefs) blackhole.consume(UrlNormalizer.resolve(SyntheticSite.PAGE_URL, href));
  }

  @Benchmark
  @OperationsPerInvocation(URLS)
  public void normalize(Blackhole blackhole) {
    for (String url : absolute) blackhole.consume(UrlNormalizer.normalize(url));
  }

  @Benchmark
  @OperationsPerInvocation(URLS)
  public void fingerprint(Blackhole blackhole) {
    for (String url : absolute) blackhole.consume(UrlFingerprint.of(url));
  }
}
