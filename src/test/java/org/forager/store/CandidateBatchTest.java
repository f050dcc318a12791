package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

/** A batch's candidates each get their own URL's origin, whatever the URL before them was. */
class CandidateBatchTest {

  @Test
  void eachCandidateHasItsOwnOrigin() {
    List<String> urls = List.of("http://a.example/1", "http://a.example/2", "http://a.example?q", "http://a.example#f",
        "http://a.example", "http://a.example.com/x", "http://a.example:8080/y", "http://a.example/3",
        "https://a.example/4", "http://a.exampl/5", "http://user@a.example/6", "http://a.example/7",
        "http://[::1]:8080/8", "http://[::1]:8080/9", "http://[::1]:80/10", "http://a.example:80/11", "http://a.example/12");
    Map<String, Pending> unique = CandidateBatch.unique(
        urls.stream().map(u -> new Candidate(u, 1, Optional.of("http://a.example/"))).toList(), Optional.empty());
    assertEquals(urls.size(), unique.size());
    for (String url : urls) {
      assertEquals(Origin.ofUrl(url).toString(), unique.get(url).origin(), url);
    }
  }

  @Test
  void aUrlWithNulIsRefusedAfterOneOfItsOrigin() {
    List<Candidate> candidates = List.of(Candidate.seed("http://a.example/1"), Candidate.seed("http://a.example/\0"));
    assertThrows(IllegalArgumentException.class, () -> CandidateBatch.unique(candidates, Optional.empty()));
  }
}
