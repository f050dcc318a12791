package org.forager.extract;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16BE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CharsetsTest {

  static Optional<String> prescan(String head) {
    return MetaCharsetPrescan.scan(head.getBytes(ISO_8859_1)).map(WebEncoding::name);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "text/html; charset=ISO-8859-1",
    "text/html;charset=iso-8859-1",
    "text/html; CHARSET=\"latin1\"",
    "text/html; foo=bar; charset = ISO-8859-1 ; baz=1",
  })
  void contentTypeCharsetLatin1MeansWindows1252(String value) {
    assertEquals(Optional.of("windows-1252"), Charsets.fromContentType(value).map(WebEncoding::name));
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
  void metaDeclarationsLatin1MeansWindows1252(String head) {
    assertEquals(Optional.of("windows-1252"), prescan(head));
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
    assertEquals(Optional.of("UTF-8"), prescan("<meta charset=utf-16le>"));
    assertEquals(Optional.of("UTF-8"), prescan("<meta charset=utf-16>"));
  }

  @Test
  void anXUserDefinedDeclarationMeansWindows1252() {
    assertEquals(Optional.of("windows-1252"), prescan("<meta charset=x-user-defined>"));
  }

  @Test
  void onlyTheFirstBytesAreScanned() {
    String late = " ".repeat(MetaCharsetPrescan.LIMIT) + "<meta charset=iso-8859-1>";
    assertEquals(Optional.empty(), prescan(late));
  }

  @Test
  void bomThenHeaderThenMetaThenUtf8() {
    byte[] meta = "<meta charset=koi8-r>".getBytes(ISO_8859_1);
    assertEquals(Charset.forName("KOI8-R"), Charsets.detect(meta, Optional.empty()).charset());
    assertEquals(Charset.forName("windows-1251"),
        Charsets.detect(meta, Optional.of("text/html; charset=windows-1251")).charset());
    byte[] bom = {(byte) 0xFE, (byte) 0xFF, 0, '<'};
    Charsets.Decision utf16 = Charsets.detect(bom, Optional.of("text/html; charset=utf-8"));
    assertEquals(UTF_16BE, utf16.charset());
    assertEquals(2, utf16.bomLength());
    assertEquals(Charset.forName("windows-1252"), Charsets.detect(new byte[] {'x'}, Optional.empty()).charset());
  }

  @Test
  void undeclaredBytesThatAreNotUtf8AreWindows1252() {
    byte[] latin = "<a href='/caf\u00e9'>".getBytes(ISO_8859_1);
    assertEquals(Charset.forName("windows-1252"), Charsets.detect(latin, Optional.of("text/html")).charset());
    byte[] utf8 = "<a href='/caf\u00e9'>".getBytes(UTF_8);
    assertEquals(UTF_8, Charsets.detect(utf8, Optional.of("text/html")).charset());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "caf\u00e9", "\u6771\u4eac", "\ud83d\ude00", "\uffff"})
  void validUtf8IsValid(String text) {
    assertTrue(Utf8.isValid(text.getBytes(UTF_8)));
  }

  @Test
  void invalidUtf8IsNotValid() {
    int[][] invalid = {{0xC3, 0x28}, {0xC0, 0xAF}, {0xE0, 0x80, 0xAF}, {0xED, 0xA0, 0x80}, {0xF4, 0x90, 0x80, 0x80},
        {0xF5, 0x80, 0x80, 0x80}, {0x80}, {0xFF}, {0xE9, 0x20}};
    for (int[] bytes : invalid) {
      byte[] b = new byte[bytes.length];
      for (int i = 0; i < b.length; i++) b[i] = (byte) bytes[i];
      assertFalse(Utf8.isValid(b), java.util.Arrays.toString(bytes));
    }
  }

  @Test
  void aSequenceCutOffByTheEndCountsAsValid() {
    // A body truncated at the size limit in the middle of a character is still UTF-8.
    byte[] cut = {'a', (byte) 0xE6, (byte) 0x9D};
    assertTrue(Utf8.isValid(cut));
  }
}
