package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The HTML standard's shared declarative refresh steps, case by case: NONE malformed, RELOAD the page itself. */
class MetaRefreshTest {

  @ParameterizedTest(name = "[{0}] -> [{1}]")
  @CsvSource(delimiter = '|', nullValues = "NONE", value = {
      "0; url=/next|/next",
      "0; url=  |RELOAD",
      "0 ; ; url=/two|; url=/two",
      "0;URL=/next|/next",
      "  5 ,  url = \"/a b\" trailing|/a b",
      "0; url='/q'x'|/q",
      "0; '/quoted'|/quoted",
      "0 /spaced|/spaced",
      "1.5; url=/f|/f",
      ".5; url=/dot|/dot",
      "0; uri=/x|uri=/x",
      "0; url /x|url /x",
      "0; url=|RELOAD",
      "0|RELOAD",
      "0;|RELOAD",
      "  30  |RELOAD",
      "x; url=/no|NONE",
      "0x; url=/no|NONE",
      "; url=/no|NONE",
      "|NONE",
  })
  void theUrlAsTheStandardReadsIt(String content, String url) {
    Optional<String> expected = Optional.ofNullable(url).map(u -> u.equals("RELOAD") ? "" : u);
    assertEquals(expected, MetaRefresh.target(content == null ? "" : content));
  }

  @Test
  void aUrlOfSpacesOrControlsIsAUrl() {
    // Only an empty URL is a reload; the URL parser reads the others (U+3000 and U+00A0 are path chars).
    assertEquals(Optional.of("\u3000"), MetaRefresh.target("0; url=\u3000"));
    assertEquals(Optional.of("\u00a0"), MetaRefresh.target("0; url='\u00a0'"));
    assertEquals(Optional.of("\u0001 \u001f"), MetaRefresh.target("0; url='\u0001 \u001f'"));
  }
}
