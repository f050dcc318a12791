package org.forager.extract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.testweb.Chromium;

/**
 * The links headless Chromium sees in pages, with scripting off in those pages.
 *
 * <p>How scripting is off: Chromium loads a harness page ({@code browser-harness.html}, scripting
 * on) that puts every page to read in an {@code <iframe sandbox="allow-same-origin">}. A sandbox
 * without {@code allow-scripts} disables scripting in the frame and in frames nested in it, so the
 * parser runs with its scripting flag off ({@code <noscript>} is parsed as markup, as by a crawler);
 * {@code allow-same-origin} lets the harness, served from the same origin, read the frame's DOM once it
 * has loaded. The harness writes what it found, URI-encoded JSON, into the DOM, which
 * {@code --dump-dom} prints. Whole-browser {@code --disable-javascript} would stop the harness too.
 *
 * <p>Per page the harness reports the links a person can follow: every element matching
 * {@code :any-link} (HTML {@code a}/{@code area} with {@code href}, SVG {@code a}) in the document
 * and its open shadow roots, its URL as the browser resolved it (document base, document encoding);
 * the {@code src} of each {@code frame}/{@code iframe}; and the same, recursively, for each
 * {@code iframe srcdoc} document. Host resolution is limited to 127.0.0.1, so pages naming other hosts
 * never reach the network.
 */
final class BrowserLinks {

  private static final Pattern RESULT = Pattern.compile("<pre id=\"result\" data-done=\"yes\">([^<]*)</pre>");

  /** A link as the browser resolved it, with its {@code rel} and its element ({@code a}, {@code area}, {@code svg:a}). */
  record Link(String url, String rel, String element) {}

  /**
   * One document's links and frames; {@code srcdoc} holds the {@code iframe srcdoc} documents.
   *
   * @param charset the document's encoding as the browser decided it
   */
  record Document(String charset, List<Link> links, List<String> frames, List<Document> srcdoc) {}

  private final Path binary;
  private final Path workDir;

  private BrowserLinks(Path binary, Path workDir) {
    this.binary = binary;
    this.workDir = workDir;
  }

  /** Uses the first Chromium on the PATH, if any. */
  static Optional<BrowserLinks> find(Path workDir) {
    return Chromium.binary().map(binary -> new BrowserLinks(binary, workDir));
  }

  static String notFound() {
    return Chromium.notFound("compare the extractor with a browser");
  }

  /** The harness page that reads {@code pages} (paths on the harness's own origin), as HTML. */
  static String harness(List<String> pages) throws IOException {
    try (var in = BrowserLinks.class.getResourceAsStream("browser-harness.html")) {
      String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      StringBuilder list = new StringBuilder("[");
      for (String page : pages) list.append(list.length() > 1 ? "," : "").append('"').append(page).append('"');
      return template.replace("/*PAGES*/[]", list.append(']'));
    }
  }

  /** Loads {@code harness} and returns each page's document, in the order the harness listed them. */
  List<Document> read(URI harness) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(workDir, "chromium-profile");
    Path stderr = workDir.resolve("chromium-stderr.txt");
    List<String> command = List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--blink-settings=imagesEnabled=false",
        "--virtual-time-budget=20000", "--dump-dom", harness.toString());
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    byte[] out;
    try {
      out = process.getInputStream().readAllBytes();
      if (!process.waitFor(90, TimeUnit.SECONDS)) throw new AssertionError("Chromium did not finish in 90 s");
    } finally {
      process.destroyForcibly();
    }
    String dom = new String(out, StandardCharsets.UTF_8);
    Matcher result = RESULT.matcher(dom);
    if (process.exitValue() != 0 || !result.find()) {
      throw new AssertionError("Chromium (exit " + process.exitValue() + ") gave no result:\n" + dom + "\n"
          + Files.readString(stderr));
    }
    JsonNode json = new ObjectMapper().readTree(URLDecoder.decode(result.group(1), StandardCharsets.UTF_8));
    List<Document> documents = new ArrayList<>();
    for (JsonNode page : json) documents.add(document(page));
    return documents;
  }

  private static Document document(JsonNode json) {
    List<Link> links = new ArrayList<>();
    for (JsonNode l : json.get("links")) links.add(new Link(l.get("url").asText(), l.get("rel").asText(), l.get("element").asText()));
    List<String> frames = new ArrayList<>();
    for (JsonNode f : json.get("frames")) frames.add(f.asText());
    List<Document> srcdoc = new ArrayList<>();
    for (JsonNode d : json.get("srcdoc")) srcdoc.add(document(d));
    return new Document(json.get("charset").asText(), links, frames, srcdoc);
  }
}
