package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PageRendererTest {

  private static final Pattern LINK = Pattern.compile("<a href=\"([^\"]*)\"");
  private static final WebConfig CONFIG = new WebConfig(50, 1000, 8080, Duration.ZERO);

  static List<String> links(String html) {
    List<String> links = new ArrayList<>();
    Matcher m = LINK.matcher(html);
    while (m.find()) links.add(m.group(1));
    return links;
  }

  static String decodeStrictly(byte[] body) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
  }

  @Test
  void pagesAreAFunctionOfHostAndPage() {
    PageRenderer one = new PageRenderer(CONFIG);
    PageRenderer two = new PageRenderer(CONFIG);
    assertArrayEquals(one.page(7, 123), two.page(7, 123));
    assertFalse(Arrays.equals(one.page(7, 123), one.page(7, 124)));
    assertFalse(Arrays.equals(one.page(7, 123), one.page(8, 123)));
  }

  @Test
  void pagesAreAbout30KbOfUtf8HtmlWith40Links() throws CharacterCodingException {
    PageRenderer renderer = new PageRenderer(CONFIG);
    for (int host : new int[] {0, 1, 49}) {
      for (int page : new int[] {0, 1, 2, 500, 999}) {
        byte[] body = renderer.page(host, page);
        assertTrue(body.length > 27_000 && body.length < 33_000, host + "/" + page + ": " + body.length);
        String html = decodeStrictly(body);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<title>") && html.contains("<meta name=\"description\""));
        assertTrue(html.contains("<nav>") && html.contains("</html>"));
        assertEquals(40, links(html).size(), html);
      }
    }
  }

  @Test
  void aSingleHostWithOnePageStillRenders() {
    PageRenderer renderer = new PageRenderer(new WebConfig(1, 1, 8080, Duration.ZERO));
    String html = new String(renderer.page(0, 0), StandardCharsets.UTF_8);
    assertEquals(40, links(html).size());
    assertFalse(html.contains("/p/"), "no page other than / exists");
  }

  @Test
  void renderingIsCheapEnoughForTensOfThousandsOfPagesPerSecond() {
    PageRenderer renderer = new PageRenderer(CONFIG);
    byte[] buf = new byte[PageRenderer.MAX_BODY];
    long bytes = 0;
    for (int i = 0; i < 2_000; i++) bytes += renderer.render(i % 50, i % 1000, buf, 0);
    long start = System.nanoTime();
    int pages = 20_000;
    for (int i = 0; i < pages; i++) bytes += renderer.render(i % 50, i % 1000, buf, 0);
    double seconds = (System.nanoTime() - start) / 1e9;
    // Typically well over 100,000 pages/s; the bound leaves room for a busy shared machine.
    assertTrue(pages / seconds > 10_000, "pages/s: " + pages / seconds);
    assertTrue(bytes > 0);
  }
}
