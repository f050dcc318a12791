package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.forager.extract.ExtractedPage;
import org.forager.extract.HtmlExtractor;
import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Pages per second through {@link HtmlExtractor#extract} on a 30 KB page with 40 links, and through
 * jsoup's parse alone (decoding included, as the extractor does it), so the difference is our work:
 * charset detection, the tree walk and resolving the links.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ExtractBenchmark {

  private final HtmlExtractor extractor = new HtmlExtractor("ForagerBot");
  private final Optional<String> contentType = Optional.of("text/html; charset=utf-8");
  private byte[] body;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
    // A benchmark of the wrong input measures nothing: check the page is what the docs say.
    int links = extractor.extract(SyntheticSite.PAGE_URL, body, contentType, List.of(), List.of()).links().size();
    if (links < 30 || body.length < SyntheticSite.PAGE_BYTES - 2000) {
      throw new IllegalStateException("unexpected page: " + body.length + " bytes, " + links + " links");
    }
  }

  @Benchmark
  public ExtractedPage extract() {
    return extractor.extract(SyntheticSite.PAGE_URL, body, contentType, List.of(), List.of());
  }

  @Benchmark
  public Document jsoupParse() {
    return Parser.htmlParser().parseInput(new String(body, UTF_8), "");
  }
}
