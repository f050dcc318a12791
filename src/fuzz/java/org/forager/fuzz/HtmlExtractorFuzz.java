package org.forager.fuzz;

import static org.forager.fuzz.UrlProperties.check;
import static org.forager.fuzz.UrlProperties.requireNormalized;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.forager.extract.ExtractedPage;
import org.forager.extract.HtmlExtractor;
import org.forager.extract.TreeReference;
import org.forager.url.UrlNormalizer;

/**
 * {@link HtmlExtractor#extract} on any body and headers, whole or cut at any byte: it never throws,
 * every link is a normalized http(s) URL, each once, none when nofollow applies, and the canonical URL
 * is normalized too; its streaming reader reads HTML soup as jsoup's DOM does, and a page's bytes as its
 * decoded text (issue 15).
 */
class HtmlExtractorFuzz {

  private static final HtmlExtractor EXTRACTOR = new HtmlExtractor("ForagerBot");
  private static final HtmlExtractor TREE = TreeReference.extractor("ForagerBot");

  /**
   * A huge body is up to 256 KiB. A full limits.max_page_bytes (2 MiB) of nested tags takes about 2 s
   * to extract, 10 to 20 times as long under the fuzzer's instrumentation: too slow to fuzz with.
   */
  private static final int MAX_HUGE = 256 << 10;

  /** Pages cut at every byte when they are no longer than this; longer ones at one byte the fuzzer picks. */
  private static final int CUT_EVERYWHERE = 64;

  private static final List<String> PAGES = List.of(
      "https://example.org/dir/page.html", "http://example.org:8080/a?b=c", "http://[::1]/",
      "https://xn--bcher-kva.example/%C3%A9/");

  private static final List<Charset> CHARSETS = List.of(
      "UTF-8", "UTF-16LE", "UTF-16BE", "windows-1252", "Shift_JIS", "ISO-2022-JP", "GB18030", "UTF-32")
      .stream().map(Charset::forName).toList();

  /** Encodings whose pages are read as bytes, some with bytes Java leaves undefined. */
  private static final List<Charset> BYTE_CHARSETS = List.of("UTF-8", "windows-1252", "windows-1251", "KOI8-R",
      "x-windows-874", "windows-1255").stream().map(Charset::forName).filter(TreeReference::readsAsBytes).toList();

  @FuzzTest
  void extract(FuzzedDataProvider data) {
    Optional<String> contentType = contentType(data);
    List<String> xRobotsTag = headers(data, Vocabulary.X_ROBOTS_TAG);
    List<String> link = headers(data, Vocabulary.LINK_HEADER);
    String pageUrl = data.consumeInt(0, 7) == 7
        ? Soup.tokens(data, Vocabulary.URL, 16)
        : data.pickValue(PAGES);
    byte[] body = body(data, MAX_HUGE);
    extractAndCheck(pageUrl, body, contentType, xRobotsTag, link);
  }

  @FuzzTest
  void extractTruncated(FuzzedDataProvider data) {
    Optional<String> contentType = contentType(data);
    String pageUrl = data.pickValue(PAGES);
    int cut = data.consumeInt(0, Integer.MAX_VALUE);
    byte[] body = body(data, 64 << 10);
    extractAndCheck(pageUrl, Arrays.copyOf(body, cut % (body.length + 1)), contentType, List.of(), List.of());
    if (body.length <= CUT_EVERYWHERE) {
      for (int i = 0; i < body.length; i++) extractAndCheck(pageUrl, Arrays.copyOf(body, i), contentType, List.of(), List.of());
    }
  }

  /**
   * The streaming reader against jsoup's DOM on HTML soup (closed at its end, as {@code
   * StreamScanDifferentialTest} does): the same page, but where they differ on purpose.
   */
  @FuzzTest
  void streamedMatchesTree(FuzzedDataProvider data) {
    Optional<String> contentType = contentType(data);
    String html = TreeReference.closed(Soup.tokens(data, Vocabulary.HTML, 64));
    if (TreeReference.readDifferentlyOnPurpose(html)) return;
    byte[] body = html.getBytes(data.pickValue(CHARSETS));
    ExtractedPage streamed = EXTRACTOR.extract(PAGES.get(0), body, contentType, List.of(), List.of());
    // The soup as the readers decode it, in the encoding they picked: one the body was not written in
    // may swallow the closing end (ISO-2022-JP reads UTF-8's byte 0x0E as a shift into katakana to the
    // end), leaving a title open, which jsoup reads on as markup; the same skips apply to that text.
    String read = new String(body, streamed.charset());
    if (!TreeReference.isClosed(read) || TreeReference.readDifferentlyOnPurpose(read)) return;
    ExtractedPage tree = TREE.extract(PAGES.get(0), body, contentType, List.of(), List.of());
    check(streamed.equals(tree), "streamed and tree differ", streamed + " / " + tree,
        () -> "Content-Type " + contentType + ", body " + Show.text(html));
  }

  /**
   * The streaming reader on a body's bytes against the same reader on the body decoded first (issue 15),
   * in each encoding read as bytes: the same links, base, canonical, robots and srcdoc documents.
   */
  @FuzzTest
  void bytesMatchDecoded(FuzzedDataProvider data) {
    Charset charset = data.pickValue(BYTE_CHARSETS);
    byte[] body = body(data, 64 << 10);
    List<Object> readings = TreeReference.readings(body, charset);
    check(readings.get(0).equals(readings.get(1)), "bytes and decoded text differ", readings.toString(),
        () -> charset + ", body " + Show.text(new String(body, 0, Math.min(body.length, 2000), Charset.forName("ISO-8859-1"))));
  }

  private static void extractAndCheck(
      String pageUrl, byte[] body, Optional<String> contentType, List<String> xRobotsTag, List<String> link) {
    ExtractedPage page = EXTRACTOR.extract(pageUrl, body, contentType, xRobotsTag, link);
    Supplier<String> context = () -> "page " + Show.text(pageUrl) + ", Content-Type " + contentType
        + ", X-Robots-Tag " + xRobotsTag + ", Link " + link + ", body "
        + Show.text(new String(body, 0, Math.min(body.length, 2000), Charset.forName("ISO-8859-1")));
    check(page.charset() != null, "no charset", "", context);
    for (String url : page.links()) requireNormalized(url, context);
    page.canonical().ifPresent(url -> requireNormalized(url, context));
    check(new HashSet<>(page.links()).size() == page.links().size(), "a link twice", page.links().toString(), context);
    check(!page.nofollow() || page.links().isEmpty(), "links despite nofollow", page.links().toString(), context);
    if (UrlNormalizer.normalize(pageUrl).isEmpty()) {
      check(page.links().isEmpty() && page.canonical().isEmpty(), "links of a page without a URL",
          page.links().toString(), context);
    }
  }

  /** Random bytes, or HTML soup in one of several charsets (sometimes with a BOM), or it repeated. */
  private static byte[] body(FuzzedDataProvider data, int maxHuge) {
    if (data.consumeInt(0, 7) == 7) return data.consumeBytes(Soup.MAX_RANDOM);
    Charset charset = data.pickValue(CHARSETS);
    String bom = data.consumeInt(0, 7) == 7 ? "\ufeff" : "";
    return (bom + Soup.text(data, Vocabulary.HTML, maxHuge)).getBytes(charset);
  }

  private static Optional<String> contentType(FuzzedDataProvider data) {
    return switch (data.consumeInt(0, 3)) {
      case 0 -> Optional.empty();
      case 1 -> Optional.of(data.consumeString(64));
      default -> Optional.of(data.pickValue(Vocabulary.CONTENT_TYPE));
    };
  }

  private static List<String> headers(FuzzedDataProvider data, List<String> vocabulary) {
    List<String> values = new ArrayList<>();
    int count = data.consumeInt(0, 3);
    for (int i = 0; i < count; i++) {
      values.add(Soup.tokens(data, data.consumeBoolean() ? vocabulary : Vocabulary.URL, 12));
    }
    return values;
  }
}
