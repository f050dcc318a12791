package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.forager.sitemap.SitemapResult.Entry;
import org.forager.sitemap.SitemapResult.Failure;
import org.forager.sitemap.SitemapResult.Index;
import org.forager.sitemap.SitemapResult.UrlSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19 item 6: a 2 MB gzip sitemap expanded to 42 MB and every entry was built before the URL cap
 * applied; two such origins ended the crawl in OutOfMemoryError. Sitemaps are now read as a stream,
 * the caps apply during the read, and nothing past them is decoded or built.
 */
@Timeout(60)
class SitemapBoundedMemoryTest {

  private static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

  /** One {@code <url>} entry of a fixed length (the number is zero-padded). */
  private static String url(long i) {
    return "<url><loc>http://www.example.com/p/%09d</loc><lastmod>2024-01-01</lastmod></url>\n".formatted(i);
  }

  /** Gzip of {@code head}, {@code count} pieces from {@code piece}, then {@code tail}; written streaming. */
  static byte[] gzip(String head, long count, java.util.function.LongFunction<String> piece, String tail) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes, 1 << 16) {
      {
        def.setLevel(Deflater.BEST_SPEED);
      }
    }) {
      out.write(head.getBytes(StandardCharsets.UTF_8));
      for (long i = 0; i < count; i++) out.write(piece.apply(i).getBytes(StandardCharsets.UTF_8));
      out.write(tail.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Counts the bytes read through it. */
  private static final class Counting extends FilterInputStream {
    long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b != -1) count++;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) count += n;
      return n;
    }
  }

  /** What went to the caller, batch by batch. */
  private static final class Batches {
    final AtomicInteger entries = new AtomicInteger();
    final AtomicInteger largest = new AtomicInteger();

    <T> void take(List<T> batch) {
      entries.addAndGet(batch.size());
      largest.accumulateAndGet(batch.size(), Math::max);
    }
  }

  /** Bytes allocated on the heap by this thread while running {@code action}. */
  private static <T> long allocatedBy(Supplier<T> action, List<T> result) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    result.add(action.get());
    return threads.getCurrentThreadAllocatedBytes() - before;
  }

  private static SitemapResult read(byte[] content, Batches batches) {
    return SitemapReader.read(SitemapReaderTest.SITEMAP, content, Optional.empty(), SitemapReaderTest.NOW,
        batches::take, batches::take);
  }

  @Test
  void aGzipBombOfValidUrlsIsReadUpToTheUrlCapAndNoFurther() throws IOException {
    long urls = 2_500_000; // 200 MB of valid entries, a few MB of gzip
    byte[] bomb = gzip(HEAD, urls, SitemapBoundedMemoryTest::url, "</urlset>\n");
    long expanded = HEAD.length() + urls * url(0).length();
    assertTrue(bomb.length < 16 << 20 && expanded > 150L << 20, bomb.length + " bytes expanding to " + expanded);
    Batches batches = new Batches();
    Counting decoded = new Counting(new GZIPInputStream(new ByteArrayInputStream(bomb)));

    SitemapResult result = SitemapReader.parse(decoded, SitemapReaderTest.NOW, batches::take, batches::take);

    assertEquals(new UrlSet(SitemapReader.MAX_URLS, Optional.of("more than 50000 URLs")), result);
    assertEquals(SitemapReader.MAX_URLS, batches.entries.get());
    assertEquals(Batcher.SIZE, batches.largest.get(), "entries go on in batches, never all at once");
    // Stopped at the entry past the cap: what was decoded is that much, plus the readers' buffers.
    long upToTheCap = HEAD.length() + (SitemapReader.MAX_URLS + 1L) * url(0).length();
    assertTrue(decoded.count <= upToTheCap + (64 << 10), decoded.count + " bytes decoded, cap reached at " + upToTheCap);
  }

  @Test
  void aTwoMegabyteGzipOfFortyTwoMegabytesIsNeverHeldWhole() {
    byte[] sitemap = gzip(HEAD, 42_000_000 / url(0).length(), SitemapBoundedMemoryTest::url, "</urlset>\n");
    Batches batches = new Batches();
    read(SitemapReaderTest.gzip(HEAD.getBytes(StandardCharsets.UTF_8)), new Batches()); // class loading
    List<SitemapResult> result = new ArrayList<>();

    long allocated = allocatedBy(() -> read(sitemap, batches), result);

    assertEquals(new UrlSet(SitemapReader.MAX_URLS, Optional.of("more than 50000 URLs")), result.get(0));
    // The old reader decoded all 42 MB into one array (with its copies) and built every entry: well
    // over 200 MB. Reading 50,000 entries as a stream allocates about 30 MB, most of it short-lived.
    assertTrue(allocated < 64L << 20, "allocated " + allocated + " bytes");
  }

  @Test
  void markupTheParserWouldHoldWholeIsRefusedPast64KiB() {
    // The JDK's StAX parser hands text on in pieces but holds a comment, CDATA section, processing
    // instruction or tag whole: 50 MB of one of them cost over 500 MB of char arrays.
    long pieces = 1_000_000; // 5 MB
    List<byte[]> hostile = List.of(
        gzip("<urlset><!--", pieces, i -> "a<b>c", "--></urlset>"),
        gzip("<urlset><url><loc><![CDATA[", pieces, i -> "a<b>c", "]]></loc></url></urlset>"),
        gzip("<urlset><?pi ", pieces, i -> "a<b>c", "?></urlset>"),
        gzip("<urlset a=\"", pieces, i -> "a>b>c", "\"></urlset>"),
        gzip("<urlset><url><loc>&#", pieces, i -> "00000", "65;</loc></url></urlset>"));
    read(SitemapReaderTest.gzip(HEAD.getBytes(StandardCharsets.UTF_8)), new Batches()); // class loading
    for (byte[] sitemap : hostile) {
      List<SitemapResult> result = new ArrayList<>();

      long allocated = allocatedBy(() -> read(sitemap, new Batches()), result);

      assertTrue(allocated < 8L << 20, "allocated " + allocated + " bytes");
      Failure failure = assertInstanceOf(Failure.class, result.get(0));
      assertEquals("a tag, comment, CDATA section or reference longer than 65536 bytes", failure.reason());
    }
  }

  @Test
  void elementsNestedWithoutEndAreCutAtSixteenLevels() {
    byte[] sitemap = gzip(HEAD + url(1), 1_000_000, i -> "<a>", "");
    Batches batches = new Batches();

    SitemapResult result = read(sitemap, batches);

    assertEquals(new UrlSet(1, Optional.of("elements nested deeper than 16")), result);
    assertEquals(1, batches.entries.get());
  }

  @Test
  void aTextSitemapOf200000BadLinesBuildsNothing() {
    String bad = "\u001b]0;retitled\u0007 not a URL, and a bit of text to make the line long enough\n";
    byte[] sitemap = gzip("", 200_000, i -> bad, "http://www.example.com/the-only-url\n");
    Batches batches = new Batches();
    read(SitemapReaderTest.gzip("http://www.example.com/\n".getBytes(StandardCharsets.UTF_8)), new Batches());
    List<SitemapResult> result = new ArrayList<>();

    long allocated = allocatedBy(() -> read(sitemap, batches), result);

    assertEquals(new UrlSet(1, Optional.empty()), result.get(0));
    // crawler-commons logged a warning and made a String of each bad line (49,999 lines printed).
    assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes for 200,000 bad lines");
    assertInstanceOf(Failure.class, read(gzip("", 200_000, i -> bad, ""), new Batches()));
  }

  @Test
  void anIndexOfMoreThan50000SitemapsHandsOnTheFirst50000InBatches() {
    byte[] index = gzip("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">", 60_000,
        i -> "<sitemap><loc>http://www.example.com/s" + i + ".xml</loc></sitemap>", "</sitemapindex>");
    Batches batches = new Batches();

    SitemapResult result = read(index, batches);

    assertEquals(new Index(SitemapReader.MAX_URLS, Optional.of("more than 50000 sitemaps")), result);
    assertEquals(SitemapReader.MAX_URLS, batches.entries.get());
    assertEquals(Batcher.SIZE, batches.largest.get());
  }

  @Test
  void aFileBrokenAfterSomeEntriesKeepsThemAndSaysWhy() {
    byte[] broken = (HEAD + url(1) + url(2) + "<url><loc>http://www.example.com/x</loc></urlset>")
        .getBytes(StandardCharsets.UTF_8);
    Batches batches = new Batches();

    UrlSet result = assertInstanceOf(UrlSet.class, read(broken, batches));

    assertEquals(2, result.urls());
    assertTrue(result.cut().orElseThrow().startsWith("unreadable: "), result.toString());
  }

  @Test
  void atMostFourSitemapsAreReadAtOnceInTheWholeProcess() throws Exception {
    int limit = SitemapReader.MAX_CONCURRENT_READS;
    byte[] sitemap = (HEAD + url(1) + "</urlset>").getBytes(StandardCharsets.UTF_8);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    List<SitemapResult> results = new CopyOnWriteArrayList<>();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 2 * limit; i++) {
      readers.add(Thread.ofPlatform().start(() -> results.add(SitemapReader.read(SitemapReaderTest.SITEMAP, sitemap,
          Optional.empty(), SitemapReaderTest.NOW, batch -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
              release.await(); // holds its read open
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            inside.decrementAndGet();
          }, batch -> { }))));
    }

    // Every reader is either holding a read open or waiting for one: nothing can move until released.
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (readers.stream().anyMatch(t -> t.getState() != Thread.State.WAITING)) {
      assertTrue(System.nanoTime() < deadline, "readers never settled");
      Thread.yield();
    }
    assertEquals(limit, inside.get(), "reads open at once");
    release.countDown();
    for (Thread reader : readers) reader.join();

    assertEquals(limit, most.get());
    assertEquals(2 * limit, results.size());
    assertTrue(results.stream().allMatch(r -> r.equals(new UrlSet(1, Optional.empty()))), results.toString());
  }

  @Test
  void ampersandsInFiftyThousandUrlsAreNoEntityBomb() {
    // JDK 24+ count each &amp; against a 100,000 entity size limit meant for DTD entities.
    byte[] sitemap = gzip(HEAD, 60_000,
        i -> "<url><loc>http://www.example.com/?p=" + i + "&amp;q=1&amp;r=&#50;</loc></url>\n", "</urlset>");
    Batches batches = new Batches();

    SitemapResult result = read(sitemap, batches);

    assertEquals(new UrlSet(SitemapReader.MAX_URLS, Optional.of("more than 50000 URLs")), result);
  }

  @Test
  void aFileOverFiftyMebibytesKeepsTheEntriesBeforeTheCap() {
    String path = "x".repeat(1_100);
    byte[] sitemap = gzip(HEAD, 49_000, i -> "<url><loc>http://www.example.com/" + path + i + "</loc></url>\n", "</urlset>");
    Batches batches = new Batches();

    UrlSet result = assertInstanceOf(UrlSet.class, read(sitemap, batches));

    assertEquals(Optional.of("larger than 52428800 bytes decoded"), result.cut());
    assertTrue(result.urls() > 45_000 && result.urls() < 49_000, result.toString());
    assertEquals(result.urls(), batches.entries.get());
  }
}
