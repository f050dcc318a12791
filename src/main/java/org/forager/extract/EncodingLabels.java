package org.forager.extract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The label table of the WHATWG Encoding Standard ("get an encoding"): {@code latin1}, {@code iso-8859-1}
 * and {@code us-ascii} are windows-1252, {@code shift_jis} is Shift_JIS (Java's windows-31j), {@code gb2312}
 * is GBK (decoded as gb18030), {@code euc-kr} is Java's x-windows-949, and so on. The labels are the
 * standard's own {@code encodings.json}, a resource beside this class, copied unchanged from
 * https://github.com/whatwg/encoding at commit a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a (2026-05-21;
 * the file last changed in 02b303619962bd0fce3651c460117f67cd8c2cd4, 2020-05-06). Immutable and thread-safe.
 *
 * <p>Encodings Java lacks (ISO-8859-10, ISO-8859-14, x-user-defined) and the replacement encoding
 * (labels {@code iso-2022-kr}, {@code hz-gb-2312} …) are known labels without a {@link WebEncoding}: the
 * label is skipped, as an unknown one. See docs/extraction.md for the differences of Java's tables.
 */
final class EncodingLabels {

  // The standard's name to the Java charset that decodes it; names absent here Java cannot decode.
  private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
      Map.entry("UTF-8", "UTF-8"), Map.entry("IBM866", "IBM866"),
      Map.entry("ISO-8859-2", "ISO-8859-2"), Map.entry("ISO-8859-3", "ISO-8859-3"),
      Map.entry("ISO-8859-4", "ISO-8859-4"), Map.entry("ISO-8859-5", "ISO-8859-5"),
      Map.entry("ISO-8859-6", "ISO-8859-6"), Map.entry("ISO-8859-7", "ISO-8859-7"),
      Map.entry("ISO-8859-8", "ISO-8859-8"), Map.entry("ISO-8859-8-I", "ISO-8859-8"),
      Map.entry("ISO-8859-13", "ISO-8859-13"), Map.entry("ISO-8859-15", "ISO-8859-15"),
      Map.entry("ISO-8859-16", "ISO-8859-16"), Map.entry("KOI8-R", "KOI8-R"), Map.entry("KOI8-U", "KOI8-U"),
      Map.entry("macintosh", "x-MacRoman"), Map.entry("windows-874", "x-windows-874"),
      Map.entry("windows-1250", "windows-1250"), Map.entry("windows-1251", "windows-1251"),
      Map.entry("windows-1252", "windows-1252"), Map.entry("windows-1253", "windows-1253"),
      Map.entry("windows-1254", "windows-1254"), Map.entry("windows-1255", "windows-1255"),
      Map.entry("windows-1256", "windows-1256"), Map.entry("windows-1257", "windows-1257"),
      Map.entry("windows-1258", "windows-1258"), Map.entry("x-mac-cyrillic", "x-MacCyrillic"),
      // The standard decodes GBK with the gb18030 decoder.
      Map.entry("GBK", "GB18030"), Map.entry("gb18030", "GB18030"),
      // The standard's Big5 is Big5 with the HKSCS extensions.
      Map.entry("Big5", "Big5-HKSCS"), Map.entry("EUC-JP", "EUC-JP"), Map.entry("ISO-2022-JP", "ISO-2022-JP"),
      Map.entry("Shift_JIS", "windows-31j"), Map.entry("EUC-KR", "x-windows-949"),
      Map.entry("UTF-16BE", "UTF-16BE"), Map.entry("UTF-16LE", "UTF-16LE"));

  // The standard's GBK encoder writes the euro sign as 0x80 and has no four-byte codes, as Windows'
  // code page 936 (Java's GB18030 and GBK both write A2E3).
  private static final String GBK_ENCODER = "x-mswin-936";

  private static final Map<String, Optional<WebEncoding>> BY_LABEL = load();

  private EncodingLabels() {}

  /**
   * The encoding a label names: ASCII whitespace around it is ignored and case does not matter; empty
   * for a label the standard does not know or one whose encoding Java lacks.
   */
  static Optional<WebEncoding> lookup(String label) {
    int from = 0;
    int to = label.length();
    while (from < to && Tokens.isSpace(label.charAt(from))) from++;
    while (to > from && Tokens.isSpace(label.charAt(to - 1))) to--;
    StringBuilder key = new StringBuilder(to - from);
    for (int i = from; i < to; i++) {
      char c = label.charAt(i);
      // ASCII case-insensitive only: toLowerCase would turn the Kelvin sign into 'k'.
      key.append(c >= 'A' && c <= 'Z' ? (char) (c + 0x20) : c);
    }
    return BY_LABEL.getOrDefault(key.toString(), Optional.empty());
  }

  /** Every label of the standard, to the encoding's name; for tests. */
  static Map<String, String> names() {
    Map<String, String> names = new HashMap<>();
    readTable().forEach(group -> group.get("encodings").forEach(encoding -> encoding.get("labels")
        .forEach(label -> names.put(label.asText(), encoding.get("name").asText()))));
    return names;
  }

  private static Map<String, Optional<WebEncoding>> load() {
    Map<String, Optional<WebEncoding>> byLabel = new HashMap<>();
    names().forEach((label, name) -> byLabel.put(label, encoding(name)));
    return Map.copyOf(byLabel);
  }

  private static Optional<WebEncoding> encoding(String name) {
    String javaName = JAVA_NAMES.get(name);
    if (javaName == null || !Charset.isSupported(javaName)) return Optional.empty();
    Charset charset = Charset.forName(javaName);
    Charset query = name.startsWith("UTF-16") ? StandardCharsets.UTF_8
        : name.equals("GBK") && Charset.isSupported(GBK_ENCODER) ? Charset.forName(GBK_ENCODER) : charset;
    return Optional.of(new WebEncoding(name, charset, query, ByteMarkup.canRead(charset)));
  }

  private static JsonNode readTable() {
    try (InputStream in = EncodingLabels.class.getResourceAsStream("encodings.json")) {
      if (in == null) throw new IllegalStateException("encodings.json missing from the class path");
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read encodings.json", e);
    }
  }
}
