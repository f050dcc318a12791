package org.forager.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The newest web-platform-tests URL data, read at test time from {@code ../shared/data/url-conformance/}
 * beside the project (its README names the upstream commit; the files are not copied into the project):
 * every http(s) case of {@code urltestdata.json} must agree after our documented deviations, as in
 * {@link WhatwgUrlTestDataTest}, and every host of {@code toascii.json} must come out of an https URL
 * as the standard's domain to ASCII gives it. Skipped, with the path it looked at, where the directory
 * is absent. Deliberate differences are in {@code url-conformance-exceptions.txt} and
 * docs/url-normalization.md.
 */
class UrlConformanceDataTest {

  private static final Path DIR = Path.of("..", "shared", "data", "url-conformance");
  private static final Map<String, String> EXCEPTIONS =
      WhatwgUrlTestDataTest.parseExceptions(WhatwgUrlTestDataTest.readText("/whatwg/url-conformance-exceptions.txt"));

  @TestFactory
  Stream<DynamicTest> urlTestDataAgrees() throws IOException {
    JsonNode root = read("urltestdata.json");
    return WhatwgUrlTestDataTest.relevantCases(root)
        .map(c -> DynamicTest.dynamicTest(c.toString(), () -> c.check(EXCEPTIONS)));
  }

  @TestFactory
  Stream<DynamicTest> toAsciiHostsAgree() throws IOException {
    JsonNode root = read("toascii.json");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode node : root) {
      if (!node.isObject()) continue; // comments
      String input = node.get("input").asText();
      Optional<String> output = node.get("output").isNull() ? Optional.empty()
          : Optional.of(node.get("output").asText()).flatMap(WhatwgUrlTestDataTest::crawlHost);
      // As the web-platform-tests runner does: the host of https://{input}/x, or a failure to parse.
      tests.add(DynamicTest.dynamicTest(WhatwgUrlTestDataTest.escape(input), () -> assertEquals(
          output, UrlNormalizer.normalize("https://" + input + "/x").map(url -> Origin.ofUrl(url).host()),
          "host of https://" + input + "/x")));
    }
    return tests.stream();
  }

  private static JsonNode read(String name) throws IOException {
    Path file = DIR.resolve(name);
    assumeTrue(Files.isRegularFile(file),
        () -> "skipped: no " + file.toAbsolutePath().normalize() + " (the shared URL conformance data beside the project)");
    return new ObjectMapper().readTree(Files.readString(file));
  }
}
