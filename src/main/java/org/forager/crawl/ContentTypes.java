package org.forager.crawl;

import org.forager.fetch.FetchResult;

/** Which responses are parsed as HTML. */
final class ContentTypes {

  private ContentTypes() {}

  /**
   * HTML by its media type; without a Content-Type, by a look at the first bytes (a tag after
   * optional white space and BOM), as browsers sniff.
   */
  static boolean isHtml(FetchResult.Response response) {
    return response.mediaType()
        .map(t -> t.equals("text/html") || t.equals("application/xhtml+xml"))
        .orElseGet(() -> looksLikeHtml(response.body()));
  }

  private static boolean looksLikeHtml(byte[] body) {
    int i = 0;
    if (body.length >= 3 && (body[0] & 0xff) == 0xEF && (body[1] & 0xff) == 0xBB && (body[2] & 0xff) == 0xBF) i = 3;
    while (i < body.length && i < 512 && Character.isWhitespace(body[i])) i++;
    return i < body.length && body[i] == '<';
  }
}
