package org.forager.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiteralDollarsTest {

  @Test
  void escapesEveryDollarButTheOneEndingTheValue() {
    Map<String, String> cases = Map.of(
        "Disallow: /a$b", "Disallow: /a%24b",
        "Disallow: /a$", "Disallow: /a$",
        "Disallow: /a$$", "Disallow: /a%24$",
        "Disallow: /a$ \t# a $ comment", "Disallow: /a$ \t# a $ comment",
        "Disallow: /a$b#c", "Disallow: /a%24b#c",
        "Disallow: /a$b\r\nAllow: /c$\rDisallow: /$d\n", "Disallow: /a%24b\r\nAllow: /c$\rDisallow: /%24d\n",
        "Disallow: /caf\u00e9$x", "Disallow: /caf\u00e9%24x");
    cases.forEach((line, expected) -> assertEquals(expected,
        new String(LiteralDollars.escaped(line.getBytes(StandardCharsets.ISO_8859_1)), StandardCharsets.ISO_8859_1),
        line));
  }

  @Test
  void aLongBodyOfShortLinesIsReadOnceNotOnceALine() {
    // 500 KiB of short lines: a first version searched from every line to the body's end (quadratic).
    String body = "Disallow: /$x\n".repeat(500 * 1024 / 14);
    assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> {
      String escaped = new String(LiteralDollars.escaped(body.getBytes(StandardCharsets.ISO_8859_1)),
          StandardCharsets.ISO_8859_1);
      assertEquals(body.replace("/$x", "/%24x"), escaped);
    });
  }

  @Test
  void aDollarBeforeAnythingThatMayEndTheRuleForTheParserStaysAnAnchor() {
    for (String body : java.util.List.of("Disallow: /*.php$\f\n", "Disallow: /*.php$\u000b\n", "Disallow: /*.php$\u0000\n",
        "Disallow: /*.php$<br>\n", "Disallow: /*.php$\u0085Disallow: /x", "Disallow: /*.php$\u2028Disallow: /x")) {
      byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
      assertSame(utf8, LiteralDollars.escaped(utf8), body);
    }
    byte[] utf16 = "\uFEFFUser-agent: *\nDisallow: /*.php$\nDisallow: /a$b\n".getBytes(StandardCharsets.UTF_16LE);
    assertSame(utf16, LiteralDollars.escaped(utf16), "UTF-16: every $ is followed by a zero byte");
  }

  @Test
  void aBodyWithoutADollarIsReturnedAsItIs() {
    byte[] body = "User-agent: *\nDisallow: /private/\n".getBytes(StandardCharsets.US_ASCII);
    assertSame(body, LiteralDollars.escaped(body));
  }
}
