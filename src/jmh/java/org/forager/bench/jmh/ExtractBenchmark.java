package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.charset.Charset;
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
 * charset detection, reading the page and resolving the links. The page comes as it is (ASCII, declared
 * UTF-8), with a fifth of its words in other scripts (UTF-8's multi-byte characters), with Latin-1 words
 * in windows-1252, and with Japanese words in Shift_JIS (an encoding the reader decodes before reading).
 * Setup extracts every variant, so the JIT has seen each before compiling, as in a crawl.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ExtractBenchmark {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
  private static final Charset SHIFT_JIS = Charset.forName("windows-31j");

  private final HtmlExtractor extractor = new HtmlExtractor("ForagerBot");
  private final Optional<String> utf8 = Optional.of("text/html; charset=utf-8");
  private final Optional<String> windows1252 = Optional.of("text/html; charset=windows-1252");
  private final Optional<String> shiftJis = Optional.of("text/html; charset=shift_jis");
  private byte[] body;
  private byte[] nonAsciiBody;
  private byte[] windows1252Body;
  private byte[] shiftJisBody;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
    String page = new String(body, UTF_8);
    // Common words, so about a fifth of the text: accented Latin, Cyrillic, Greek, CJK (as SimHashBenchmark).
    nonAsciiBody = page.replace(" the ", " thé ").replace(" of ", " из ").replace(" and ", " καί ")
        .replace(" to ", " 東京 ").replace(" in ", " straße ").getBytes(UTF_8);
    windows1252Body = page.replace(" the ", " thé ").replace(" in ", " straße ").replace(" and ", " café ")
        .getBytes(WINDOWS_1252);
    shiftJisBody = page.replace(" the ", " 東京 ").replace(" of ", " の ").replace(" and ", " 日本語 ")
        .getBytes(SHIFT_JIS);
    // A benchmark of the wrong input measures nothing: check the page is what the docs say.
    int links = extract().links().size();
    if (links < 30 || body.length < SyntheticSite.PAGE_BYTES - 2000
        || extractNonAscii().links().size() != links || extractWindows1252().links().size() != links
        || extractShiftJis().links().size() != links) {
      throw new IllegalStateException("unexpected page: " + body.length + " bytes, " + links + " links");
    }
    for (int i = 0; i < 2_000; i++) {
      extract();
      extractNonAscii();
      extractWindows1252();
      extractShiftJis();
    }
  }

  @Benchmark
  public ExtractedPage extract() {
    return extractor.extract(SyntheticSite.PAGE_URL, body, utf8, List.of(), List.of());
  }

  @Benchmark
  public ExtractedPage extractNonAscii() {
    return extractor.extract(SyntheticSite.PAGE_URL, nonAsciiBody, utf8, List.of(), List.of());
  }

  @Benchmark
  public ExtractedPage extractWindows1252() {
    return extractor.extract(SyntheticSite.PAGE_URL, windows1252Body, windows1252, List.of(), List.of());
  }

  @Benchmark
  public ExtractedPage extractShiftJis() {
    return extractor.extract(SyntheticSite.PAGE_URL, shiftJisBody, shiftJis, List.of(), List.of());
  }

  @Benchmark
  public Document jsoupParse() {
    return Parser.htmlParser().parseInput(new String(body, UTF_8), "");
  }
}
