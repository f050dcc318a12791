package org.forager.extract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.Charset;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The two kinds of {@link Markup} position by position, and which encodings are read as bytes. */
class MarkupTest {

  @Test
  void utf8AndTheSingleByteEncodingsAreReadAsBytes() {
    Map<String, Boolean> byName = new TreeMap<>();
    EncodingLabels.names().keySet().forEach(label -> EncodingLabels.lookup(label)
        .ifPresent(encoding -> byName.put(encoding.name(), encoding.asciiCompatible())));
    Set<String> decodedFirst = new TreeSet<>();
    byName.forEach((name, bytes) -> {
      if (!bytes) decodedFirst.add(name);
    });
    assertEquals(Set.of("Big5", "EUC-JP", "EUC-KR", "GBK", "ISO-2022-JP", "Shift_JIS", "UTF-16BE", "UTF-16LE", "gb18030"),
        decodedFirst);
    assertEquals(true, byName.get("UTF-8"));
    assertEquals(true, byName.get("windows-1252"));
    assertEquals(true, byName.get("KOI8-R"));
    assertEquals(true, byName.get("x-mac-cyrillic"));
  }

  @Test
  void indexOfFindsTheFirstAtEveryAlignment() {
    for (int length = 0; length < 40; length++) {
      for (int at = 0; at <= length; at++) {
        byte[] bytes = new byte[length + 1];
        // Bytes that differ from '<' by one bit, and high ones: no false match from a borrow.
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (i % 3 == 0 ? '=' : i % 3 == 1 ? 0xBC : ';');
        bytes[at] = '<';
        if (at + 3 <= length) bytes[at + 3] = '<';
        for (int from = 0; from <= at; from++) {
          assertEquals(at, new ByteMarkup(bytes, 0, UTF_8).indexOf('<', from), length + " " + at + " " + from);
        }
        assertEquals(at + 3 <= length ? at + 3 : -1, new ByteMarkup(bytes, 0, UTF_8).indexOf('<', at + 1));
      }
    }
  }

  @Test
  void bothKindsFindTheSameAsciiAtTheirOwnPositions() {
    String text = "<a hr\u00e9f=\"x\u4f8b\">\r\n&amp;\u0000<!-- \u00e9 --!> -->";
    Markup string = new StringMarkup(text);
    byte[] utf8 = text.getBytes(UTF_8);
    Markup bytes = new ByteMarkup(utf8, 0, UTF_8);
    // Every ASCII character is at the position of its own in each; the rest is 0x80 or more.
    StringBuilder fromString = new StringBuilder();
    StringBuilder fromBytes = new StringBuilder();
    for (int i = string.start; i < string.end; i++) fromString.append(string.at(i) < 0x80 ? (char) string.at(i) : '*');
    for (int i = bytes.start; i < bytes.end; i++) {
      boolean continuation = (utf8[i] & 0xC0) == 0x80; // one '*' per character: at its first byte
      if (!continuation) fromBytes.append(bytes.at(i) < 0x80 ? (char) bytes.at(i) : '*');
    }
    assertEquals(fromString.toString(), fromBytes.toString());
    assertEquals(text.indexOf("--!>"), string.indexOf("--!>", 0, string.end));
    assertEquals(new String(utf8, 0, bytes.indexOf("--!>", 0, bytes.end), UTF_8).length(), text.indexOf("--!>"));
    assertEquals(-1, bytes.indexOf("--!>", 0, bytes.indexOf("--!>", 0, bytes.end) + 3), "must fit before the end");
    int quote = bytes.indexOf('"', 0);
    assertEquals("x\u4f8b", bytes.text(quote + 1, bytes.indexOf('"', quote + 1)));
    assertEquals(bytes.indexOf('\r', 0), bytes.until(quote, bytes.end, Markup.SPACE));
    assertEquals(bytes.indexOf('&', 0), bytes.until(bytes.indexOf('\n', 0), bytes.end, Markup.NON_SPACE));
    assertEquals(bytes.indexOf(0, 0), bytes.until(bytes.indexOf('&', 0) + 1, bytes.end, Markup.NUL));
    assertEquals(string.indexOf(0, 0), string.until(string.indexOf('&', 0) + 1, string.end, Markup.NUL));
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheText() {
    byte[] body = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '<', 'a', '>'};
    ByteMarkup markup = new ByteMarkup(body, 3, UTF_8);
    assertEquals("<a>", markup.text(markup.start, markup.end));
  }

  @Test
  void malformedBytesAreReplacedAsInThePageDecodedWhole() {
    Charset windows1252 = Charset.forName("windows-1252");
    byte[] body = {'"', (byte) 0xE2, (byte) 0x82, '"', (byte) 0x81, (byte) 0xE9, '"'};
    assertEquals(new String(body, 1, 2, UTF_8), "\uFFFD");
    assertEquals("\uFFFD", new ByteMarkup(body, 0, UTF_8).text(1, 3));
    assertEquals(new String(body, 4, 2, windows1252), new ByteMarkup(body, 0, windows1252).text(4, 6));
  }

  @Test
  void commonTagNamesAreNotCopied() {
    Markup markup = new StringMarkup("<DIV><Svg><foreignObject><x-widget><d\u0000v><\u00e9m>");
    assertSame("div", markup.tagName(1, 4));
    assertSame("svg", markup.tagName(6, 9));
    assertSame("foreignobject", markup.tagName(11, 24));
    assertEquals("x-widget", markup.tagName(26, 34));
    assertEquals("d\uFFFDv", markup.tagName(36, 39));
    assertEquals("\u00e9m", markup.tagName(41, 43));
    assertNull(TagNames.lookup(markup, 26, 34));
    byte[] utf8 = "<\u00c9M><TEMPLATE>".getBytes(UTF_8);
    Markup bytes = new ByteMarkup(utf8, 0, UTF_8);
    assertEquals("\u00c9m", bytes.tagName(1, 4));
    assertSame("template", bytes.tagName(6, 14));
  }
}
