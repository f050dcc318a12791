package org.forager.fetch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A response's {@code Transfer-Encoding} (RFC 9112 sections 6.1 and 7): how its body is framed, and
 * the codings applied to it besides chunked, which the fetcher undoes as it undoes content codings
 * ({@link TransferDecoding}). A client's {@code TE} says which codings besides chunked it takes (RFC
 * 9110 section 10.1.4); we send none, so a server should send only chunked, but a few send more and a
 * hostile one may: a page sent {@code gzip, chunked} was kept compressed, its links lost, and stored
 * so in the WARC record with nothing to tell a reader. Immutable.
 *
 * @param present whether the response has a {@code Transfer-Encoding} field: then it, not a
 *     {@code Content-Length}, frames the body (RFC 9112 section 6.3)
 * @param chunked whether {@code chunked} is the last coding: the body is chunks; otherwise it ends
 *     when the connection does
 * @param toUndo the other codings, {@code gzip} or {@code deflate} as {@link ContentCoding#decoder}
 *     names them, in the order to undo them (the reverse of the order applied)
 */
record TransferCodings(boolean present, boolean chunked, List<String> toUndo) {

  /** A response without {@code Transfer-Encoding}. */
  static final TransferCodings NONE = new TransferCodings(false, false, List.of());

  /** {@code Transfer-Encoding: chunked} alone, as nearly every server sends it. */
  private static final TransferCodings CHUNKED = new TransferCodings(true, true, List.of());

  /** The longest coding name a failure's message quotes. */
  private static final int QUOTED = 40;

  TransferCodings {
    toUndo = List.copyOf(toUndo);
  }

  /**
   * The codings of the {@code Transfer-Encoding} field values, taken as one list; empty elements
   * are skipped, and {@code identity} (RFC 2616's, dropped since RFC 7230) means nothing.
   *
   * <p>{@code chunked} repeated at the end ({@code chunked, chunked}, or two fields of it) is the
   * chunked framing once: RFC 9112 section 6.1 forbids chunking twice, and the servers that send it
   * (a framework adding its own field to the application's) chunk once.
   *
   * @throws HttpProtocolException for a coding that cannot be undone (unknown, or {@code compress},
   *     which the JDK has no decoder for), a coding after {@code chunked} (the framing cannot be
   *     found), or more than {@link ContentCoding#MAX_LAYERS} codings: the body could only be kept as
   *     garbage
   */
  static TransferCodings of(List<String> fieldValues) throws HttpProtocolException {
    if (fieldValues.isEmpty()) return NONE;
    if (fieldValues.size() == 1 && fieldValues.get(0).equalsIgnoreCase("chunked")) return CHUNKED;
    List<String> codings = new ArrayList<>(2);
    for (String value : fieldValues) {
      for (String element : value.split(",")) {
        if (!element.isBlank()) codings.add(element.strip().toLowerCase(Locale.ROOT));
      }
    }
    int firstChunked = codings.indexOf("chunked");
    boolean chunked = firstChunked >= 0;
    if (chunked) {
      // chunked twice (two fields of it: servers whose framework adds its own) is read once, as
      // curl does; a coding after it is refused, as curl does.
      for (String after : codings.subList(firstChunked, codings.size())) {
        if (!after.equals("chunked")) {
          throw new HttpProtocolException("a transfer coding after chunked: " + quoted(fieldValues));
        }
      }
      codings = codings.subList(0, firstChunked);
    }
    List<String> toUndo = new ArrayList<>(codings.size());
    for (String coding : codings) {
      if (coding.equals("identity")) continue;
      Optional<String> known = ContentCoding.decodable(coding);
      if (known.isEmpty()) throw new HttpProtocolException("unsupported transfer coding " + quoted(coding));
      toUndo.add(known.get());
    }
    if (toUndo.size() > ContentCoding.MAX_LAYERS) {
      throw new HttpProtocolException("more than " + ContentCoding.MAX_LAYERS + " transfer codings: "
          + quoted(fieldValues));
    }
    Collections.reverse(toUndo);
    return new TransferCodings(true, chunked, toUndo);
  }

  private static String quoted(List<String> fieldValues) {
    return quoted(String.join(", ", fieldValues));
  }

  /** A server's text, short and printable, in quotes: it goes into the crawl log's reason. */
  private static String quoted(String text) {
    StringBuilder out = new StringBuilder(QUOTED + 8).append('"');
    for (int i = 0; i < text.length() && i < QUOTED; i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 || c >= 0x7f ? '?' : c);
    }
    return out.append(text.length() > QUOTED ? "...\"" : "\"").toString();
  }
}
