package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The byte-level checks every XML sitemap passes before the parser sees it. */
class XmlGuardTest {

  private static final String REFUSED = "refused: a DOCTYPE or entity declaration (external entities and"
      + " entity expansion are never processed)";

  /** Hands on one byte per read, so that every pattern is split across reads. */
  private static InputStream drip(String text) {
    return new FilterInputStream(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, 1));
      }
    };
  }

  /** What the parser would be handed before the guard stopped the stream (if it did). */
  private static String handedOn(InputStream guarded) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = guarded.read(buffer)) != -1; ) out.write(buffer, 0, n);
    } catch (IOException e) {
      return out.toString(StandardCharsets.UTF_8) + "|" + e.getMessage();
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aDoctypeSplitAcrossReadsIsStoppedBeforeItsLastByteIsHandedOn() {
    assertEquals("<urlset>x <!DOCTYP|" + REFUSED, handedOn(new XmlGuard(drip("<urlset>x <!DOCTYPE u>"))));
    assertEquals("<urlset><!-- <!eNtIt|" + REFUSED, handedOn(new XmlGuard(drip("<urlset><!-- <!eNtItY x -->"))));
  }

  @Test
  void markupIsMeasuredAsTheParserReadsIt() {
    String fine = "<urlset a=\"x>y\" b='\"'><!-- a > b -- --><![CDATA[ ]> ]] ]]><?pi ? > ?></urlset>";
    assertEquals(fine, handedOn(new XmlGuard(drip(fine))));
    String longText = "<urlset>" + "x".repeat(XmlGuard.MAX_MARKUP * 2) + "</urlset>"; // text is handed on in pieces
    assertEquals(longText, handedOn(new XmlGuard(new ByteArrayInputStream(longText.getBytes(StandardCharsets.UTF_8)))));
    String longComment = "<urlset><!--" + "-> ".repeat(XmlGuard.MAX_MARKUP) + "--></urlset>";
    IOException stop = assertThrows(IOException.class,
        () -> new XmlGuard(new ByteArrayInputStream(longComment.getBytes(StandardCharsets.UTF_8))).readAllBytes());
    assertEquals("a tag, comment, CDATA section or reference longer than 65536 bytes", stop.getMessage());
  }

  @Test
  void bytesPassUnchanged() throws IOException {
    byte[] sample = SitemapReaderTest.resource("sitemaps-org-sample.xml");
    assertArrayEquals(sample, new XmlGuard(new ByteArrayInputStream(sample)).readAllBytes());
  }
}
