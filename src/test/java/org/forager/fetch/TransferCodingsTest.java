package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link TransferCodings}: a response's Transfer-Encoding read as framing and codings to undo. */
class TransferCodingsTest {

  @Test
  void codingsBeforeChunkedAreUndoneLastAppliedFirst() throws HttpProtocolException {
    assertEquals(new TransferCodings(true, true, List.of("gzip")), TransferCodings.of(List.of("gzip, chunked")));
    assertEquals(new TransferCodings(true, true, List.of("gzip", "deflate")),
        TransferCodings.of(List.of("deflate", "X-GZIP , Chunked")));
    assertEquals(new TransferCodings(true, true, List.of()), TransferCodings.of(List.of("identity, chunked")));
  }

  @Test
  void withoutChunkedLastTheBodyEndsWithTheConnection() throws HttpProtocolException {
    assertEquals(new TransferCodings(true, false, List.of("gzip")), TransferCodings.of(List.of("gzip")));
    assertEquals(new TransferCodings(true, false, List.of()), TransferCodings.of(List.of(" ")));
    assertEquals(TransferCodings.NONE, TransferCodings.of(List.of()));
  }

  @Test
  void chunkedRepeatedAtTheEndIsChunkedOnce() throws HttpProtocolException {
    assertEquals(new TransferCodings(true, true, List.of()), TransferCodings.of(List.of("chunked", "chunked")));
    assertEquals(new TransferCodings(true, true, List.of("gzip")), TransferCodings.of(List.of("gzip, chunked, chunked")));
  }

  @Test
  void whatCannotBeUndoneIsAProtocolErrorNamingIt() {
    assertTrue(refused("x-foo, chunked").contains("unsupported transfer coding \"x-foo\""));
    assertTrue(refused("compress, chunked").contains("unsupported transfer coding \"compress\""));
    assertTrue(refused("chunked, gzip").contains("a transfer coding after chunked"));
    assertTrue(refused("chunked, gzip, chunked").contains("a transfer coding after chunked"));
    assertTrue(refused("gzip, gzip, gzip, gzip, chunked").contains("more than 3 transfer codings"));
  }

  @Test
  void aServersCodingNameIsQuotedShortAndPrintable() {
    String message = refused("x\u0007" + "y".repeat(100) + ", chunked");
    assertTrue(message.contains("\"x?" + "y".repeat(38) + "...\""), message);
  }

  private static String refused(String value) {
    return assertThrows(HttpProtocolException.class, () -> TransferCodings.of(List.of(value)), value).getMessage();
  }
}
