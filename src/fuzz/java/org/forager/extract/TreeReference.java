package org.forager.extract;

import java.nio.charset.Charset;
import java.util.List;

/**
 * For the fuzz targets of {@code org.forager.fuzz}: the extractor that reads every page through jsoup's
 * DOM (the reference {@link StreamScan} is checked against), and which inputs the two read differently on
 * purpose ({@link StreamScanDifferentialTest}); the reader on a page's bytes against the page decoded
 * ({@link ByteScanDifferentialTest}). Fuzz sources only: the main API stays closed.
 */
public final class TreeReference {

  private TreeReference() {}

  public static HtmlExtractor extractor(String productToken) {
    return HtmlExtractor.treeOnly(productToken);
  }

  /** The input with every tag and raw text left open at its end closed. */
  public static String closed(String html) {
    return StreamScanDifferentialTest.closed(html);
  }

  /** Whether {@code text} still ends as {@link #closed} ended it. */
  public static boolean isClosed(String text) {
    return text.endsWith(StreamScanDifferentialTest.closed(""));
  }

  public static boolean readDifferentlyOnPurpose(String html) {
    return StreamScanDifferentialTest.readDifferentlyOnPurpose(html);
  }

  /** Whether {@code charset}'s pages are read as bytes (UTF-8 and the single-byte encodings). */
  public static boolean readsAsBytes(Charset charset) {
    return ByteMarkup.canRead(charset);
  }

  /**
   * The reader on {@code body} decoded in {@code charset} first, and on its bytes ({@link
   * ByteScanDifferentialTest#readings}): equal when the byte reader is right.
   */
  public static List<Object> readings(byte[] body, Charset charset) {
    return ByteScanDifferentialTest.readings(body, 0, charset);
  }
}
