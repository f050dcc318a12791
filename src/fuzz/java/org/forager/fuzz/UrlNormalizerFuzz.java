package org.forager.fuzz;

import static org.forager.fuzz.UrlProperties.check;
import static org.forager.fuzz.UrlProperties.requireNormalized;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.forager.url.UrlNormalizer;

/**
 * {@link UrlNormalizer#normalize} and {@link UrlNormalizer#resolve} on any text: they never throw, and
 * every answer is a normalized http(s) URL that normalizing again leaves as it is.
 */
class UrlNormalizerFuzz {

  /**
   * Huge inputs go up to 256 Ki chars, 128 times limits.max_url_length; longer ones only cost fuzzing
   * time (HostileRobotsTest crawls a page with a 1 MB URL).
   */
  static final int MAX_HUGE = 256 << 10;

  /** Bases in normalized form, as the extractor passes them: query, port, IP literals, deep paths. */
  private static final List<String> BASES = List.of(
      "https://example.org/dir/page.html?x=1", "http://example.org/", "http://example.org:8080/a/b/c/",
      "https://[::1]/x", "http://127.0.0.1/a?q", "https://xn--bcher-kva.example/%C3%9F/..%2F?%zz",
      "http://a/b/c/d;p?q", "https://example.org//double//slash");

  @FuzzTest
  void normalize(FuzzedDataProvider data) {
    String input = Soup.text(data, Vocabulary.URL, MAX_HUGE);
    Optional<String> url = UrlNormalizer.normalize(input);
    url.ifPresent(u -> requireNormalized(u, () -> "normalize(" + Show.text(input) + ")"));
  }

  @FuzzTest
  void resolve(FuzzedDataProvider data) {
    int baseKind = data.consumeInt(0, 3);
    String base = switch (baseKind) {
      case 0 -> UrlNormalizer.normalize(Soup.tokens(data, Vocabulary.URL, 24)).orElse(BASES.get(0));
      case 1 -> Soup.tokens(data, Vocabulary.URL, 24); // not normalized: an unspecified answer, never a throw
      default -> data.pickValue(BASES);
    };
    String href = Soup.text(data, Vocabulary.URL, MAX_HUGE);
    Optional<String> url = UrlNormalizer.resolve(base, href);
    if (baseKind == 1) return;
    Supplier<String> context = () -> "resolve(" + Show.text(base) + ", " + Show.text(href) + ")";
    url.ifPresent(u -> requireNormalized(u, context));
    if (href.startsWith("http://") || href.startsWith("https://")) {
      check(url.equals(UrlNormalizer.normalize(href)), "an absolute href resolves unlike it normalizes: "
          + UrlNormalizer.normalize(href), url.orElse("(none)"), context);
    }
    check(UrlNormalizer.resolve(base, "").equals(Optional.of(base)), "empty href is not the base",
        UrlNormalizer.resolve(base, "").orElse("(none)"), context);
    check(UrlNormalizer.resolve(base, base).equals(Optional.of(base)), "the base resolves elsewhere",
        UrlNormalizer.resolve(base, base).orElse("(none)"), context);
  }
}
