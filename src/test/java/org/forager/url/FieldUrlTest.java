package org.forager.url;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class FieldUrlTest {

  /** A field as the fetcher reads it: the bytes on the wire, one char each. */
  private static String asRead(byte[] wire) {
    return new String(wire, ISO_8859_1);
  }

  @Test
  void utf8BytesAreReadAsUtf8AndResolveEncodedOnce() {
    String field = asRead("/café/東京?q=é".getBytes(UTF_8));

    assertEquals("/café/東京?q=é", FieldUrl.text(field));
    assertEquals("http://example.com/caf%C3%A9/%E6%9D%B1%E4%BA%AC?q=%C3%A9",
        UrlNormalizer.resolve("http://example.com/a", FieldUrl.text(field)).orElseThrow());
  }

  @Test
  void bytesThatAreNotUtf8AreKeptAsBytes() {
    String field = asRead(new byte[] {'/', 'c', 'a', 'f', (byte) 0xE9, '?', 'q', '=', (byte) 0xFF});

    assertEquals("/caf%E9?q=%FF", FieldUrl.text(field));
    assertEquals("http://example.com/caf%E9?q=%FF", UrlNormalizer.resolve("http://example.com/", FieldUrl.text(field)).orElseThrow());
  }

  @Test
  void asciiAndTextNotReadFromBytesAreKeptAsTheyAre() {
    String ascii = "/a%C3%A9?b=c d";
    assertSame(ascii, FieldUrl.text(ascii));
    String text = "/東京";
    assertSame(text, FieldUrl.text(text));
  }
}
