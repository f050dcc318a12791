package org.forager.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the official WHATWG URL test data (web-platform-tests {@code urltestdata.json}, see
 * {@code src/test/resources/whatwg/README.md}) against {@link UrlNormalizer}: every case whose input or base is
 * http(s), or whose expected result is. The expected {@code href} is first put through our documented deviations
 * (fragment, userinfo and empty query dropped; escapes upper-cased and unreserved ones decoded); a failure, or a
 * result in another scheme, must give an empty answer. Cases in {@code known-exceptions.txt} must still differ,
 * so the list cannot go stale.
 */
class WhatwgUrlTestDataTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One test case: where it is in the file, its input and base, and the expected href (empty for failure). */
  record Case(int index, String input, Optional<String> base, Optional<String> href, Optional<String> origin) {

    /** Checks this case: it agrees after our deviations, or, listed in {@code exceptions}, still differs. */
    void check(Map<String, String> exceptions) {
      Optional<String> expected = href().filter(WhatwgUrlTestDataTest::isHttp)
          .filter(WhatwgUrlTestDataTest::hostSurvivesItsDots).map(WhatwgUrlTestDataTest::deviate);
      Optional<String> actual = run(this);
      // The origin is checked too when the data gives one: Origin.ofUrl must agree with our normalized URL.
      Optional<String> expectedOrigin = actual.isPresent() ? origin().map(WhatwgUrlTestDataTest::deviateOrigin)
          : Optional.empty();
      Optional<String> actualOrigin = expectedOrigin.isPresent()
          ? actual.map(url -> Origin.ofUrl(url).toString()) : Optional.empty();
      if (exceptions.containsKey(key())) {
        boolean passes = expected.equals(actual) && expectedOrigin.equals(actualOrigin);
        assertTrue(!passes, "listed as a known exception but now passes; remove it: " + this);
        return;
      }
      assertEquals(expected, actual, toString());
      assertEquals(expectedOrigin, actualOrigin, "origin of " + this);
      actual.ifPresent(url -> assertEquals(actual, UrlNormalizer.normalize(url), "normalize(normalize(x)) for " + this));
    }

    String key() {
      return input + "\u0000" + base.orElse("\u0001");
    }

    @Override
    public String toString() {
      return "#" + index + " " + escape(input) + " against " + base.map(WhatwgUrlTestDataTest::escape).orElse("null");
    }
  }

  private static final Map<String, String> KNOWN_EXCEPTIONS = loadKnownExceptions();

  static Stream<Case> cases() {
    return relevantCases(readJson("/whatwg/urltestdata.json"));
  }

  /** The cases of a urltestdata.json whose input or base is http(s), or whose expected result is. */
  static Stream<Case> relevantCases(JsonNode root) {
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode node = root.get(i);
      if (!node.isObject()) continue; // comments
      String input = node.get("input").asText();
      Optional<String> base = node.get("base").isNull() ? Optional.empty() : Optional.of(node.get("base").asText());
      Optional<String> href = node.has("failure") ? Optional.empty() : Optional.of(node.get("href").asText());
      Optional<String> origin = node.has("origin") ? Optional.of(node.get("origin").asText()) : Optional.empty();
      boolean relevant = base.filter(WhatwgUrlTestDataTest::isHttp).isPresent()
          || isHttp(stripForSchemeCheck(input))
          || href.filter(WhatwgUrlTestDataTest::isHttp).isPresent();
      if (relevant) cases.add(new Case(i, input, base, href, origin));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesWhatwgAfterOurDeviations(Case c) {
    c.check(KNOWN_EXCEPTIONS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void normalizedResultIsAFixedPoint(Case c) {
    Optional<String> actual = run(c);
    actual.ifPresent(url -> assertEquals(actual, UrlNormalizer.normalize(url), "normalize(normalize(x)) for " + c));
  }

  @Test
  void everyKnownExceptionNamesARunCase() {
    Map<String, String> unmatched = new HashMap<>(KNOWN_EXCEPTIONS);
    cases().forEach(c -> unmatched.remove(c.key()));
    assertTrue(unmatched.isEmpty(), "known exceptions that match no case: " + unmatched.values());
  }

  private static Optional<String> run(Case c) {
    if (c.base().isEmpty()) return UrlNormalizer.normalize(c.input());
    String base = c.base().get();
    // resolve() takes a normalized base, as the crawler always has one; WPT bases are valid URLs.
    String ourBase = isHttp(base) ? UrlNormalizer.normalize(base).orElseThrow() : base;
    return UrlNormalizer.resolve(ourBase, c.input());
  }

  /** Applies our documented deviations from WHATWG to an expected http(s) href. */
  static String deviate(String href) {
    int hash = href.indexOf('#');
    String url = hash >= 0 ? href.substring(0, hash) : href;
    int authorityStart = url.indexOf("://") + 3;
    int pathStart = url.indexOf('/', authorityStart);
    String authority = url.substring(authorityStart, pathStart);
    int at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.substring(at + 1);
    authority = withoutTrailingDot(authority);
    String rest = url.substring(pathStart);
    if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) rest = rest.substring(0, rest.length() - 1);
    return url.substring(0, authorityStart) + authority + normalizeEscapes(rest);
  }

  /** A host:port without its domain's trailing dot, which the crawl drops (example.org. is example.org). */
  static String withoutTrailingDot(String authority) {
    if (authority.startsWith("[")) return authority;
    int colon = authority.lastIndexOf(':');
    String host = colon >= 0 ? authority.substring(0, colon) : authority;
    String port = colon >= 0 ? authority.substring(colon) : "";
    String stripped = host.replaceAll("\\.+$", "");
    return stripped.isEmpty() ? authority : stripped + port;
  }

  /**
   * Whether the href's host is still a host without its trailing dots: "." and "foo.09." are not (nothing,
   * a name read as a bad IPv4 address), and the crawl refuses such URLs where the URL Standard keeps them.
   */
  static boolean hostSurvivesItsDots(String href) {
    int authorityStart = href.indexOf("://") + 3;
    int end = authorityStart;
    while (end < href.length() && "/?#".indexOf(href.charAt(end)) < 0) end++;
    String authority = href.substring(authorityStart, end);
    authority = authority.substring(authority.lastIndexOf('@') + 1);
    if (authority.startsWith("[")) return true;
    String host = authority.contains(":") ? authority.substring(0, authority.lastIndexOf(':')) : authority;
    if (!host.endsWith(".")) return true;
    String stripped = host.replaceAll("\\.+$", "");
    return !stripped.isEmpty() && !Ipv4Parser.endsInNumber(stripped, 0, stripped.length());
  }

  /** A host as the crawl names it: without trailing dots; empty when that leaves no valid host. */
  static Optional<String> crawlHost(String host) {
    return hostSurvivesItsDots("http://" + host + "/") ? Optional.of(host.startsWith("[") ? host
        : host.replaceAll("\\.+$", "")) : Optional.empty();
  }

  /** An origin (scheme://host[:port]) as the crawl names it: its host without a trailing dot. */
  static String deviateOrigin(String origin) {
    int authorityStart = origin.indexOf("://");
    if (authorityStart < 0) return origin;
    return origin.substring(0, authorityStart + 3) + withoutTrailingDot(origin.substring(authorityStart + 3));
  }

  /** Upper-case hex in escapes, unreserved escapes decoded unless that would forge a new escape. */
  static String normalizeEscapes(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
        char decoded = (char) Integer.parseInt(s.substring(i + 1, i + 3), 16);
        boolean unreserved = decoded < 0x80 && (Character.isLetterOrDigit(decoded) || "-._~".indexOf(decoded) >= 0);
        int n = out.length();
        boolean openEscape = (n >= 1 && out.charAt(n - 1) == '%')
            || (n >= 2 && out.charAt(n - 2) == '%' && isHex(out.charAt(n - 1)));
        if (unreserved && !(isHex(decoded) && openEscape)) {
          out.append(decoded);
        } else {
          out.append('%').append(s.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
        }
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  static boolean isHttp(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("http:") || lower.startsWith("https:");
  }

  /** The input as the parser sees its scheme: leading C0/space stripped, tabs and newlines removed. */
  private static String stripForSchemeCheck(String input) {
    int i = 0;
    while (i < input.length() && input.charAt(i) <= 0x20) i++;
    return input.substring(i).replace("\t", "").replace("\n", "").replace("\r", "");
  }

  static String escape(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c < 0x20 || c == 0x7F || (c >= 0x80 && !Character.isLetterOrDigit(c))) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /** Lines of {@code ["input", "base" or null] reason}; blank lines and lines starting with '#' are skipped. */
  private static Map<String, String> loadKnownExceptions() {
    return parseExceptions(readText("/whatwg/known-exceptions.txt"));
  }

  /** Exception lines as {@link Case#key()} to reason. */
  static Map<String, String> parseExceptions(String text) {
    Map<String, String> exceptions = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) continue;
      try (JsonParser parser = JSON.createParser(line)) {
        JsonNode key = JSON.readTree(parser);
        String reason = line.substring((int) parser.currentLocation().getCharOffset()).trim();
        String base = key.get(1).isNull() ? "\u0001" : key.get(1).asText();
        exceptions.put(key.get(0).asText() + "\u0000" + base, reason);
      } catch (IOException e) {
        throw new UncheckedIOException("bad exception line: " + line, e);
      }
    }
    return exceptions;
  }

  static JsonNode readJson(String resource) {
    try {
      return JSON.readTree(readText(resource));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String readText(String resource) {
    try (InputStream in = WhatwgUrlTestDataTest.class.getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("missing test resource " + resource);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
