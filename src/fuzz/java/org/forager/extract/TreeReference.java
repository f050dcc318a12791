package org.forager.extract;

/**
 * For the fuzz targets of {@code org.forager.fuzz}: the extractor that reads every page through jsoup's
 * DOM (the reference {@link StreamScan} is checked against), and which inputs the two read differently on
 * purpose ({@link StreamScanDifferentialTest}). Fuzz sources only: the main API stays closed.
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

  public static boolean readDifferentlyOnPurpose(String html) {
    return StreamScanDifferentialTest.readDifferentlyOnPurpose(html);
  }
}
