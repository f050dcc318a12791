package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetTest {

  @ParameterizedTest
  @CsvSource({
      "/, 0", "/p/1.html, 1", "/p/99.html, 99", "/p/100.html, -4", "/p/0.html, -4", "/p/01.html, -4",
      "/p/-1.html, -4", "/p/1.htm, -4", "/p/1.html?a=b, -4", "/robots.txt, -1", "/robots.txt?x, -4",
      "/private/, -2", "/private/account/3.html, -2", "/media/1-2.jpg, -3", "/docs/report-3.pdf, -3",
      "/favicon.ico, -4", "http://127.1.0.1:8080/p/5.html, 5", "http://127.1.0.1:8080, 0", "'', -4"})
  void classifiesTargetsExactly(String target, int expected) {
    assertEquals(expected, Target.classify(target, 100));
  }
}
