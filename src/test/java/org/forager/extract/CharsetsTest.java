package org.forager.extract;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16BE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CharsetsTest {

  static Optional<Charset> prescan(String head) {
    return MetaCharsetPrescan.scan(head.getBytes(ISO_8859_1));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "text/html; charset=ISO-8859-1",
    "text/html;charset=iso-8859-1",
    "text/html; CHARSET=\"latin1\"",
    "text/html; foo=bar; charset = ISO-8859-1 ; baz=1",
  })
  void contentTypeCharset(String value) {
    assertEquals(Optional.of(ISO_8859_1), Charsets.fromContentType(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"text/html", "text/html; charset=", "text/html; charset=nope-42", "text/html; charsetx=utf-8", ""})
  void noContentTypeCharset(String value) {
    assertEquals(Optional.empty(), Charsets.fromContentType(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "<meta charset=iso-8859-1>",
    "<META CHARSET='ISO-8859-1'>",
    "<meta charset = \"latin1\" />",
    "<!doctype html><html lang=en><head><title>t</title><meta charset=iso-8859-1>",
    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">",
    "<meta content='text/html;charset=\"iso-8859-1\"' http-equiv=content-type>",
    "<!-- <meta charset=utf-8> --><meta charset=iso-8859-1>",
    "<div title='<meta charset=utf-8>'><meta charset=iso-8859-1>",
    "<meta charset=no-such-thing><meta charset=iso-8859-1>",
    "<meta charset=iso-8859-1 charset=utf-8>",
  })
  void metaDeclarations(String head) {
    assertEquals(Optional.of(ISO_8859_1), prescan(head));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "",
    "<p>no meta</p>",
    "<meta content='text/html; charset=iso-8859-1'>",
    "<meta http-equiv=content-type>",
    "<!-- <meta charset=iso-8859-1> -->",
    "<!-- <meta charset=iso-8859-1>",
    "<metacharset=iso-8859-1>",
    "<meta charset=\"iso-8859-1",
    "<meta name=description content='charset=iso-8859-1'>",
  })
  void noMetaDeclaration(String head) {
    assertEquals(Optional.empty(), prescan(head));
  }

  @Test
  void aUtf16DeclarationInAsciiBytesMeansUtf8() {
    assertEquals(Optional.of(UTF_8), prescan("<meta charset=utf-16le>"));
  }

  @Test
  void onlyTheFirstBytesAreScanned() {
    String late = " ".repeat(MetaCharsetPrescan.LIMIT) + "<meta charset=iso-8859-1>";
    assertEquals(Optional.empty(), prescan(late));
  }

  @Test
  void bomThenHeaderThenMetaThenUtf8() {
    byte[] meta = "<meta charset=iso-8859-1>".getBytes(ISO_8859_1);
    assertEquals(new Charsets.Decision(ISO_8859_1, 0), Charsets.detect(meta, Optional.empty()));
    assertEquals(new Charsets.Decision(Charset.forName("windows-1252"), 0),
        Charsets.detect(meta, Optional.of("text/html; charset=windows-1252")));
    byte[] bom = {(byte) 0xFE, (byte) 0xFF, 0, '<'};
    assertEquals(new Charsets.Decision(UTF_16BE, 2), Charsets.detect(bom, Optional.of("text/html; charset=utf-8")));
    assertEquals(new Charsets.Decision(UTF_8, 0), Charsets.detect(new byte[] {'x'}, Optional.empty()));
  }
}
