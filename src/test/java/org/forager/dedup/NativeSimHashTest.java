package org.forager.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.forager.natives.NativeLibraries;
import org.junit.jupiter.api.Test;

/**
 * The native simhash is the Java reading's, page for page, by the CPU's path and by the SSE2 baseline: on
 * pages of every kind of text and markup, on random bytes, at every length around its spans and word
 * widths, from threads at once. Where the
 * build made the library ({@code target/native/simhash.status} says "built") it must be in use: one
 * that silently failed to load would cost a crawl a tenth of its CPU.
 */
class NativeSimHashTest {

  @Test
  void isInUseWhereTheBuildMadeIt() throws Exception {
    Path status = Path.of("target", "native", "simhash.status");
    String built = Files.isRegularFile(status) ? Files.readString(status).strip() : "";
    if (built.equals("built") && System.getProperty(NativeLibraries.DIRECTORY_PROPERTY) == null) {
      assertEquals(Optional.empty(), NativeSimHash.unavailable(), "the native simhash is used here");
    } else if (!built.isEmpty()) {
      assertTrue(NativeSimHash.unavailable().isPresent(), "not built (" + built + "), so not used");
    }
    // Whatever the machine: nothing from a library that is not used, nothing above the buffer.
    byte[] page = "one two three".getBytes(UTF_8);
    assertEquals(NativeSimHash.unavailable().isEmpty(), NativeSimHash.of(page).isPresent());
    assertTrue(NativeSimHash.of(new byte[NativeSimHash.MAX_PAGE_BYTES + 1]).isEmpty());
  }

  @Test
  void givesJavasSimhashOnPagesOfEveryKindOfTextAndMarkup() {
    assumeTrue(NativeSimHash.unavailable().isEmpty(), "the Java reading is used here, and tested as before");
    List<byte[]> pages = NativeSimHash.checkPages(new Random(1), 3_000);
    int withSimhash = 0;
    for (byte[] page : pages) withSimhash += check(page).isPresent() ? 1 : 0;
    assertTrue(withSimhash > 2_000, withSimhash + " pages with a simhash");
  }

  @Test
  void givesJavasSimhashOnRandomBytes() {
    assumeTrue(NativeSimHash.unavailable().isEmpty(), "the Java reading is used here");
    Random random = new Random(2);
    // Bytes drawn from alphabets that make words, markup and UTF-8 sequences of every shape likely.
    byte[][] alphabets = {
      "aZ9 <>&;#!-/sScCrRiIpPtTyYlLeE".getBytes(UTF_8),
      {'a', 'b', ' ', '<', '>', '&', ';', (byte) 0xC3, (byte) 0xA9, (byte) 0xE2, (byte) 0x82, (byte) 0xAC,
          (byte) 0xED, (byte) 0xA0, (byte) 0xF0, (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xE0},
    };
    for (int p = 0; p < 20_000; p++) {
      byte[] alphabet = alphabets[p % alphabets.length];
      byte[] page = new byte[random.nextInt(p % 100 == 0 ? 5_000 : 300)];
      for (int i = 0; i < page.length; i++) {
        page[i] = random.nextInt(10) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
      }
      check(page);
    }
  }

  @Test
  void givesJavasSimhashForWordsOfEveryLengthAtEveryOffset() {
    assumeTrue(NativeSimHash.unavailable().isEmpty(), "the Java reading is used here");
    // The native reading hashes a word's last 16 bytes at once and classifies 64 bytes at a time:
    // words of 1 to 80 letters, ASCII or ending in an accented letter, ending at every offset of a span.
    for (int lead = 0; lead < 70; lead++) {
      for (int length = 1; length <= 80; length++) {
        for (String last : new String[] {"", "\u00e9", "\u00c9x", "\u65e5"}) {
          String word = "Ab9".repeat(27).substring(0, length) + last;
          String page = " ".repeat(lead) + word + " second third " + word + "<p>" + word + "&amp;" + word;
          check(page.getBytes(UTF_8));
        }
      }
    }
    // A character reference's name is read up to 31 chars: references of 28 to 34 chars, ended or not.
    for (int length = 28; length <= 34; length++) {
      for (String name : new String[] {"a".repeat(length), "\u00e9".repeat(length), "#" + "1".repeat(length - 1)}) {
        check(("one two &" + name + "; three four &" + name + " five").getBytes(UTF_8));
      }
    }
  }

  @Test
  void givesJavasSimhashForTheLargestPageItReadsAndLeavesLargerOnesToJava() {
    assumeTrue(NativeSimHash.unavailable().isEmpty(), "the Java reading is used here");
    byte[] words = "<p>Many words of text, &amp; more \u00e9t\u00e9 stra\u00dfe</p>\n".getBytes(UTF_8);
    byte[] page = new byte[NativeSimHash.MAX_PAGE_BYTES];
    for (int i = 0; i < page.length; i++) page[i] = words[i % words.length];
    check(page);
    byte[] larger = Arrays.copyOf(page, page.length + 1);
    assertTrue(NativeSimHash.of(larger).isEmpty(), "read in Java");
    assertEquals(Utf8Html.simhash(larger), SimHash.ofHtml(larger, UTF_8));
    // A short page after a long one: the bytes the long one left in the buffer are not read.
    check("one two three".getBytes(UTF_8));
    check("one two".getBytes(UTF_8));
  }

  @Test
  void givesEachCallerItsOwnPagesSimhashFromThreadsAtOnce() throws Exception {
    assumeTrue(NativeSimHash.unavailable().isEmpty(), "the Java reading is used here");
    List<byte[]> pages = NativeSimHash.checkPages(new Random(3), 400);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(threads.submit(() -> {
          for (int round = 0; round < 5; round++) pages.forEach(NativeSimHashTest::check);
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      threads.shutdownNow();
    }
  }

  /** Asserts the native simhash of {@code page}, on either path, is the Java reading's, and returns it. */
  private static OptionalLong check(byte[] page) {
    OptionalLong expected = Utf8Html.simhash(page);
    Optional<OptionalLong> actual = NativeSimHash.of(page);
    assertTrue(actual.isPresent(), "computed natively");
    assertEquals(expected, actual.get(), () -> "page: " + new String(page, UTF_8));
    assertEquals(actual, NativeSimHash.ofBaseline(page), () -> "SSE2, page: " + new String(page, UTF_8));
    return expected;
  }
}
