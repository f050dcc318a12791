package org.forager.dedup;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.forager.natives.BufferPool;
import org.forager.natives.NativeLibraries;

/**
 * {@link Utf8Html}'s simhash computed by Forager's native library ({@code src/main/c/simhash_utf8.c},
 * built by {@code bin/native-libraries}): the same value, a third of the CPU, and no warm-up of the
 * JIT (the simhash was about 12 % of a crawl's CPU; docs/benchmarks.md, session 50).
 *
 * <p>The library is given the letters' table Java uses ({@link WordChars#lowerCase} for every BMP
 * char), so the two readings cannot disagree on Unicode, and is checked against {@link Utf8Html} on
 * pages of every kind of text and markup before it is used; where it was not built, does not load or
 * fails that check, {@link #of} is empty and the caller reads the page in Java. Thread-safe: each call
 * takes a native buffer from a pool (the page is copied there, between the zero bytes the native
 * reading may load around it, and the reading's scratch follows it).
 */
final class NativeSimHash {

  private static final System.Logger LOG = System.getLogger(NativeSimHash.class.getName());

  /** The library's file ({@link NativeLibraries#find}). */
  static final String LIBRARY = "libforager-simhash.so";

  /** The largest page read here: a larger one (rare) is read in Java, so that a buffer stays 256 KiB. */
  static final int MAX_PAGE_BYTES = 256 * 1024;

  /** Zero bytes before the page (the words' 16-byte loads) and after it (the 64-byte blocks read past its end). */
  private static final int BEFORE = 16;
  private static final int AFTER = 128;
  private static final int RESULT = BEFORE + MAX_PAGE_BYTES + AFTER;
  /** The native reading's scratch: two bits a byte of the page, in words, and two words more. */
  private static final int SCRATCH = RESULT + Long.BYTES;
  private static final int BUFFER_BYTES = SCRATCH + 2 * (MAX_PAGE_BYTES / 64 + 2) * Long.BYTES;

  /** Each new buffer starts with the zeros before the page; those after it are written with each page. */
  private static final BufferPool POOL =
      new BufferPool(BUFFER_BYTES, BufferPool.keepForCores(), buffer -> buffer.clear(BEFORE));

  /** Per BMP char, its lower case if a letter or digit, else 0 ({@link WordChars#lowerCase}); set by {@link #probe}. */
  private static Memory lowerCase;

  /** Empty when the native reading is used here, else the one-line reason it is not. */
  private static final Optional<String> UNAVAILABLE = probe();

  private NativeSimHash() {}

  /** Empty when the native reading is used here, else why not. */
  static Optional<String> unavailable() {
    return UNAVAILABLE;
  }

  /**
   * The simhash of UTF-8 HTML, as {@link Utf8Html#simhash} has it; empty when it is not computed here
   * (not available, a page over {@link #MAX_PAGE_BYTES}, no native buffer to be had): the caller then
   * reads the page in Java.
   */
  static Optional<OptionalLong> of(byte[] html) {
    return of(html, false);
  }

  /** {@link #of} with the library's baseline path (SSE2) whatever the CPU has (tests). */
  static Optional<OptionalLong> ofBaseline(byte[] html) {
    return of(html, true);
  }

  private static Optional<OptionalLong> of(byte[] html, boolean baseline) {
    if (UNAVAILABLE.isPresent() || html.length > MAX_PAGE_BYTES) return Optional.empty();
    try {
      return Optional.of(compute(html, baseline));
    } catch (VirtualMachineError e) {
      if (!(e instanceof OutOfMemoryError)) throw e;
      return Optional.empty(); // JNA's "Cannot allocate" for a native buffer: Java needs none
    }
  }

  private static OptionalLong compute(byte[] html, boolean baseline) {
    Memory buffer = POOL.take();
    try {
      buffer.write(BEFORE, html, 0, html.length);
      buffer.setMemory(BEFORE + html.length, AFTER, (byte) 0);
      Pointer result = buffer.share(RESULT);
      Pointer page = buffer.share(BEFORE);
      Pointer scratch = buffer.share(SCRATCH);
      int found = baseline ? Natives.forager_simhash_utf8_sse2(page, html.length, lowerCase, scratch, result)
          : Natives.forager_simhash_utf8(page, html.length, lowerCase, scratch, result);
      return found == 1 ? OptionalLong.of(result.getLong(0)) : OptionalLong.empty();
    } finally {
      POOL.give(buffer);
    }
  }

  private static Optional<String> probe() {
    if (!"amd64".equals(System.getProperty("os.arch"))) {
      return Optional.of("the native simhash is built for x86-64 only");
    }
    Optional<Path> library = NativeLibraries.find(LIBRARY);
    if (library.isEmpty()) return Optional.of("the native simhash was not built (bin/native-libraries needs gcc)");
    try {
      if (Native.SIZE_T_SIZE != Long.BYTES) return Optional.of("the native simhash is used on 64-bit JVMs only");
      Native.register(Natives.class, NativeLibrary.getInstance(library.get().toString()));
      Memory table = new Memory(2L << 16);
      short[] lower = new short[1 << 16];
      for (int c = 0; c < lower.length; c++) lower[c] = (short) WordChars.lowerCase((char) c);
      table.write(0, lower, 0, lower.length);
      lowerCase = table;
      Optional<String> failed = selfCheck();
      failed.ifPresent(why -> LOG.log(System.Logger.Level.WARNING, "native simhash not used: {0}", why));
      return failed;
    } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
      // Not loaded, a function missing, no native buffer: a reason, never an error of the class.
      return Optional.of("the native simhash did not load: " + e);
    } catch (Error e) {
      if (e instanceof VirtualMachineError) throw e;
      return Optional.of("the native simhash did not load: " + e); // JNA unable to load itself
    }
  }

  /** Empty if the library's simhashes, on either path, equal Java's on {@link #checkPages}. */
  private static Optional<String> selfCheck() {
    for (byte[] page : checkPages(new Random(50), 200)) {
      OptionalLong expected = Utf8Html.simhash(page);
      for (boolean baseline : new boolean[] {false, true}) {
        OptionalLong actual = compute(page, baseline);
        if (!expected.equals(actual)) {
          return Optional.of("its self-check gave another simhash than Java's (" + actual + " for " + expected
              + ", a page of " + page.length + " bytes" + (baseline ? ", SSE2" : "") + ")");
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Pages made of every kind of piece the two readings must agree on: ASCII words short and long
   * (past 16 and 64 bytes), letters of two and three UTF-8 bytes (upper case too), four-byte ones,
   * malformed, overlong and surrogate sequences, tags, comments, script and style in any case,
   * character references, digits and punctuation, at random places; also fewer than three words.
   */
  static List<byte[]> checkPages(Random random, int count) {
    String[] pieces = {
      "word", "Word", "WORDS", "x", "a1b2", "0123456789", "internationalization", "abcdefghijklmnop",
      "abcdefghijklmnopq", "Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(2), "caf\u00e9", "\u00c9t\u00e9",
      "stra\u00dfe", "\u0130stanbul", "\u65e5\u672c\u8a9e", "\u0928\u092e\u0938\u094d\u0924\u0947", "\ud83d\ude00",
      "na\u00efve", "\u00a0", " ", "  ", "\n", "\t", ".", ", ", "-", "'", "<p>", "</p>", "<a href=\"x\">",
      "<br/>", "<!-- note -->", "<!--->", "<!-->", "<!DOCTYPE html>", "<script>var a = 1;</script>",
      "<SCRIPT type=x>if (a<b) c();</SCRIPT>", "<style>p { color: red }</style>", "<scripts>", "<styled>",
      "&amp;", "&amp", "&#233;", "&#x20;", "&nbsp;", "&", "&\u00e9t\u00e9;", "<", ">", "</", "<!--",
    };
    byte[][] bytes = new byte[pieces.length][];
    for (int i = 0; i < pieces.length; i++) bytes[i] = pieces[i].getBytes(StandardCharsets.UTF_8);
    byte[][] raw = {
      {(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, {(byte) 0x80}, {(byte) 0xFF},
      {(byte) 0xC3, 'a'}, {0},
    };
    List<byte[]> pages = new ArrayList<>();
    for (int p = 0; p < count; p++) {
      int length = p < 20 ? p : random.nextInt(p % 10 == 0 ? 3_000 : 400);
      ByteArrayOutputStream page = new ByteArrayOutputStream();
      for (int k = 0; k < length; k++) {
        byte[] piece = random.nextInt(12) == 0 ? raw[random.nextInt(raw.length)] : bytes[random.nextInt(bytes.length)];
        page.write(piece, 0, piece.length);
      }
      pages.add(page.toByteArray());
    }
    return pages;
  }

  /** The C function, bound by {@link Native#register}. */
  private static final class Natives {
    static native int forager_simhash_utf8(Pointer page, long n, Pointer lower, Pointer scratch, Pointer out);

    static native int forager_simhash_utf8_sse2(Pointer page, long n, Pointer lower, Pointer scratch, Pointer out);
  }
}
