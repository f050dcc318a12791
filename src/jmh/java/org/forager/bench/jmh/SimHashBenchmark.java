package org.forager.bench.jmh;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.dedup.SimHash;
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
 * Simhashes per second of the 30 KB page ({@link SimHash#ofHtml}: decode, skip markup, shingle,
 * vote): as UTF-8 bytes (the crawl's usual path), decoded as windows-1252 (the String path), with
 * some words in other scripts (UTF-8's multi-byte characters), and with an accented letter in one
 * word of twelve.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SimHashBenchmark {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private byte[] body;
  private byte[] nonAsciiBody;
  private byte[] accentedBody;

  @Setup
  public void setUp() {
    body = SyntheticSite.page();
    nonAsciiBody = nonAscii(body);
    accentedBody = accented(body);
  }

  /** The page with some of its words in other scripts. */
  static byte[] nonAscii(byte[] body) {
    // Common words, but only where spaces surround them: about 50 of the page's 3,200 words. Accented
    // Latin, Cyrillic, Greek, CJK.
    return new String(body, StandardCharsets.UTF_8).replace(" the ", " thé ").replace(" of ", " из ")
        .replace(" and ", " καί ").replace(" to ", " 東京 ").replace(" in ", " straße ")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The page with a letter of one word in twelve of its text accented, a two-byte letter inside an
   * ASCII word, as in most European text and in the crawl benchmark's pages (one word in twelve
   * there too: bench/web's TextPool).
   */
  static byte[] accented(byte[] body) {
    String html = new String(body, StandardCharsets.UTF_8);
    StringBuilder page = new StringBuilder(html.length() + 1024);
    Matcher words = Pattern.compile("<[^>]*>|[A-Za-z]{2,}").matcher(html);
    int at = 0;
    int count = 0;
    while (words.find()) {
      String word = words.group();
      page.append(html, at, words.start());
      at = words.end();
      if (word.charAt(0) == '<' || ++count % 12 != 0) {
        page.append(word);
      } else {
        int middle = word.length() / 2;
        page.append(word, 0, middle).append("éüöçñèà".charAt(count / 12 % 7)).append(word, middle + 1, word.length());
      }
    }
    return page.append(html, at, html.length()).toString().getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public long simhash() {
    return SimHash.ofHtml(body, StandardCharsets.UTF_8).orElseThrow();
  }

  @Benchmark
  public long simhashWindows1252() {
    return SimHash.ofHtml(body, WINDOWS_1252).orElseThrow();
  }

  @Benchmark
  public long simhashNonAscii() {
    return SimHash.ofHtml(nonAsciiBody, StandardCharsets.UTF_8).orElseThrow();
  }

  @Benchmark
  public long simhashAccented() {
    return SimHash.ofHtml(accentedBody, StandardCharsets.UTF_8).orElseThrow();
  }
}
