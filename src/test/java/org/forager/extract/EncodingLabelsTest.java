package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link EncodingLabels} against the Encoding Standard's own label list ({@code encodings.json}). */
class EncodingLabelsTest {

  // Encodings of the standard that Java cannot decode: their labels are skipped (docs/extraction.md).
  private static final Set<String> NOT_IN_JAVA = Set.of("ISO-8859-10", "ISO-8859-14", "x-user-defined", "replacement");

  @Test
  void everyLabelOfTheStandardNamesItsEncoding() {
    Map<String, String> labels = EncodingLabels.names();
    assertEquals(228, labels.size(), "labels in encodings.json");
    Map<String, String> wrong = new TreeMap<>();
    for (Map.Entry<String, String> label : labels.entrySet()) {
      Optional<String> name = EncodingLabels.lookup(label.getKey()).map(WebEncoding::name);
      Optional<String> expected = NOT_IN_JAVA.contains(label.getValue()) ? Optional.empty() : Optional.of(label.getValue());
      if (!name.equals(expected)) wrong.put(label.getKey(), name + " for " + label.getValue());
    }
    assertTrue(wrong.isEmpty(), "labels looked up wrongly: " + wrong);
  }

  @Test
  void labelsIgnoreAsciiCaseAndWhitespaceOnly() {
    assertEquals("windows-1252", EncodingLabels.lookup(" \tLATIN1\n").orElseThrow().name());
    assertEquals("Shift_JIS", EncodingLabels.lookup("Shift_JIS").orElseThrow().name());
    // The Kelvin sign lower-cases to 'k' in Java, not in ASCII.
    assertEquals(Optional.empty(), EncodingLabels.lookup("\u212aoi8-r"));
    assertEquals(Optional.empty(), EncodingLabels.lookup("\u00a0utf-8"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ISO8859_1", "UTF8mb4", "UTF-32", "x-MacGreek", "Cp850", "", "utf 8"})
  void javaAliasesThatAreNotWebLabelsAreUnknown(String label) {
    assertEquals(Optional.empty(), EncodingLabels.lookup(label));
  }

  /** One characteristic byte sequence per encoding, decoded as the standard's index says. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "iso-8859-1|80|\u20ac", "us-ascii|93|\u201c", "windows-1252|9f|\u0178", "ibm866|80|\u0410",
    "iso-8859-2|a1|\u0104", "iso-8859-5|b0|\u0410", "iso-8859-7|c1|\u0391", "iso-8859-8-i|e0|\u05d0",
    "iso-8859-15|a4|\u20ac", "iso-8859-16|a1|\u0104", "koi8-r|c1|\u0430", "mac|80|\u00c4", "windows-874|a1|\u0e01",
    "windows-1251|c0|\u0410", "windows-1256|c7|\u0627", "shift_jis|8740|\u2460", "sjis|82a0|\u3042",
    "euc-jp|a4a2|\u3042", "iso-2022-jp|1b244224221b2842|\u3042", "gb2312|8140|\u4e02", "gbk|81308130|\u0080",
    "gb18030|81308130|\u0080", "big5|8840|\u31c0", "euc-kr|8141|\uac02", "korean|b0a1|\uac00",
    "utf-16|4100|A", "utf-16be|0041|A", "unicode-1-1-utf-8|c3a9|\u00e9",
  })
  void decodesAsTheStandardSays(String label, String hex, String expected) {
    byte[] bytes = java.util.HexFormat.of().parseHex(hex);
    Charset charset = EncodingLabels.lookup(label).orElseThrow().charset();
    assertEquals(expected, new String(bytes, charset), label + " " + hex);
  }

  @Test
  void utf16PagesEncodeQueriesInUtf8AndGbkPagesWithTheGbkEncoder() {
    assertEquals("UTF-8", EncodingLabels.lookup("utf-16le").orElseThrow().queryCharset().name());
    assertEquals("x-mswin-936", EncodingLabels.lookup("gb2312").orElseThrow().queryCharset().name());
    assertEquals("GB18030", EncodingLabels.lookup("gb18030").orElseThrow().queryCharset().name());
    assertEquals("windows-31j", EncodingLabels.lookup("shift_jis").orElseThrow().queryCharset().name());
  }
}
