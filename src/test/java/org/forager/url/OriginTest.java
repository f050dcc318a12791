package org.forager.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OriginTest {

  private static final List<Origin> ORIGINS = List.of(
      new Origin("http", "a.example", -1), new Origin("https", "a.example", -1),
      new Origin("http", "a.example", 8090), new Origin("http", "a.example", 9), new Origin("http", "a.example", 65535),
      new Origin("https", "a.example", 80), new Origin("http", "[::1]", 8080), new Origin("http", "a.example", 0));

  private static final List<String> URLS = List.of(
      "http://a.example", "http://a.example/", "http://a.example/p?q", "https://a.example/", "http://a.example.org/",
      "http://a.example:8090/", "http://a.example:8090", "http://a.example:80901/", "http://a.example:809/",
      "http://a.example:9/", "http://a.example:90/", "http://a.example:65535/x", "https://a.example:80/",
      "http://[::1]:8080/", "http://[::1]/", "http://a.example:/", "http://a.example:0/", "http://a.example:00/",
      "http://a.exampl", "http:/", "", "httpx://a.example/");

  @Test
  void containsIsWhetherTheUrlStartsWithTheSerializedOriginAndThenAPathOrNothing() {
    for (Origin origin : ORIGINS) {
      String prefix = origin.toString();
      for (String url : URLS) {
        boolean expected = url.startsWith(prefix) && (url.length() == prefix.length() || url.charAt(prefix.length()) == '/');
        assertEquals(expected, origin.contains(url), origin + " contains " + url);
      }
    }
  }

  @Test
  void aUrlOfEveryOriginIsContainedInItsOwnOriginOnly() {
    for (Origin origin : ORIGINS) {
      for (Origin other : ORIGINS) {
        assertEquals(origin.equals(other), other.contains(origin + "/page"), other + " contains " + origin + "/page");
      }
    }
  }
}
