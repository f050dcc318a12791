package org.forager.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs ({@code href}) of the web-platform-tests URL cases in {@code ../shared/data}, for tests
 * that check another component against many real-world URL shapes; none when the data is not there.
 */
public final class WptUrlHrefs {

  private WptUrlHrefs() {}

  /** Every case's {@code href}, in the file's order. */
  public static List<String> all() throws IOException {
    Path data = Path.of("..", "shared", "data", "url-conformance", "urltestdata.json");
    List<String> hrefs = new ArrayList<>();
    if (!Files.isRegularFile(data)) return hrefs;
    for (JsonNode node : new ObjectMapper().readTree(Files.readString(data))) {
      if (node.isObject() && node.has("href")) hrefs.add(node.get("href").asText());
    }
    return hrefs;
  }
}
