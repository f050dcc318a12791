package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.junit.jupiter.api.Test;

/** Which responses are read as HTML: the same answers as from {@code Response.mediaType()}, which it no longer builds. */
class ContentTypesTest {

  @Test
  void answersAsTheMediaTypeDoes() {
    List<String> values = List.of("text/html", "text/html; charset=utf-8", " TEXT/HTML ;q", "Text/Html",
        "\ttext/html\t", "application/xhtml+xml", "APPLICATION/XHTML+XML; x", "text/htm", "text/html5",
        "text/plain", "", " ", ";", " ; charset=utf-8", "text/html,text/plain", "text / html",
        "appl\u0130cation/xhtml+xml", "appl\u0131cation/xhtml+xml", "text/\u212Atml", "text/h\u0000tml",
        "application/xhtml+xml ;", "text/html\u0085");
    for (String body : List.of("<html>", "plain text", "\uFEFF <p>")) {
      for (String value : values) {
        FetchResult.Response r = response(List.of(new Header("Content-Type", value)), body);
        assertEquals(asBefore(r), ContentTypes.isHtml(r), "\"" + value + "\" with " + body);
      }
      FetchResult.Response none = response(List.of(), body);
      assertEquals(asBefore(none), ContentTypes.isHtml(none), "no Content-Type, " + body);
      FetchResult.Response two = response(List.of(new Header("content-type", "text/plain"),
          new Header("Content-Type", "text/html")), body);
      assertEquals(asBefore(two), ContentTypes.isHtml(two), "the first of two");
    }
  }

  /** The answer as it was made before: from the media type, else by sniffing. */
  private static boolean asBefore(FetchResult.Response r) {
    Optional<String> mediaType = r.mediaType();
    if (mediaType.isPresent()) return mediaType.get().equals("text/html") || mediaType.get().equals("application/xhtml+xml");
    return ContentTypes.isHtml(response(List.of(), new String(r.body(), StandardCharsets.UTF_8)));
  }

  private static FetchResult.Response response(List<Header> headers, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new FetchResult.Response("https://example.org/", Instant.EPOCH, 1, new byte[0], Optional.empty(),
        "HTTP/1.1", 200, "OK", headers, bytes, bytes, Optional.empty());
  }
}
