package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.forager.sitemap.SitemapResult.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Hostile XML: external entities (XXE) and entity expansion (billion laughs) are never processed. */
@Timeout(30)
class SitemapSafetyTest {

  private static final String SECRET = "secret-4f1c2a";

  private static String xxe(Path secretFile) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE urlset [ <!ENTITY xxe SYSTEM "%s"> ]>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>http://www.example.com/&xxe;</loc></url>
        </urlset>
        """.formatted(secretFile.toUri());
  }

  private static final String BILLION_LAUGHS = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [
        <!ENTITY lol "lol">
        <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
        <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
        <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
        <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
        <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
        <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
        <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
      ]>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>http://www.example.com/&lol9;</loc></url>
      </urlset>
      """;

  private static SitemapResult read(String xml) {
    return SitemapReaderTest.read("http://www.example.com/sitemap.xml", xml.getBytes(StandardCharsets.UTF_8),
        Optional.of("application/xml")).result();
  }

  @Test
  void thePayloadReallyReadsTheFileWhenAParserResolvesExternalEntities(@TempDir Path dir) throws Exception {
    // Proves the XXE test below tests something: a default JDK DOM parser leaks the file.
    Path secretFile = Files.writeString(dir.resolve("secret.txt"), SECRET);
    var document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xxe(secretFile).getBytes(StandardCharsets.UTF_8)));

    assertTrue(document.getDocumentElement().getTextContent().contains(SECRET));
  }

  @Test
  void anExternalEntityIsNeverResolved(@TempDir Path dir) throws Exception {
    Path secretFile = Files.writeString(dir.resolve("secret.txt"), SECRET);

    SitemapResult result = read(xxe(secretFile));

    assertInstanceOf(Failure.class, result);
    assertTrue(!result.toString().contains(SECRET));
  }

  @Test
  void billionLaughsIsRefusedAtOnce() {
    assertEquals(new Failure("refused: a DOCTYPE or entity declaration (external entities and entity expansion"
        + " are never processed)"), read(BILLION_LAUGHS));
  }

  @Test
  void anEntityDeclarationAfterSomeEntriesStopsTheReadThere() {
    StringBuilder xml = new StringBuilder("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (int i = 0; i < 2_000; i++) xml.append("<url><loc>http://www.example.com/").append(i).append("</loc></url>\n");
    xml.append("<!ENTITY x \"y\">\n<url><loc>http://www.example.com/after</loc></url>\n</urlset>\n");

    SitemapReaderTest.Read read = SitemapReaderTest.read(xml.toString().getBytes(StandardCharsets.UTF_8));

    // The parser reads ahead, so the last entries before the declaration may be lost with it.
    assertTrue(read.pages().size() >= 1_000 && read.pages().size() <= 2_000, read.pages().size() + " entries");
    assertEquals(new SitemapResult.UrlSet(read.pages().size(), Optional.of("refused: a DOCTYPE or entity declaration"
        + " (external entities and entity expansion are never processed)")), read.result());
  }

  @Test
  void aDoctypeIsRefusedWhateverItsCaseOrPlace() {
    assertInstanceOf(Failure.class, read("<!doctype urlset><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>"));
    assertInstanceOf(Failure.class, read("""
        <?xml version="1.0"?>
        <!-- a comment first -->
        <!DocType urlset SYSTEM "http://127.0.0.1:1/evil.dtd">
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>
        """));
  }

  @Test
  void utf16IsRefusedSinceTheDoctypeCheckReadsBytes(@TempDir Path dir) throws Exception {
    Path secretFile = Files.writeString(dir.resolve("secret.txt"), SECRET);
    byte[] utf16 = xxe(secretFile).replace("UTF-8", "UTF-16").getBytes(StandardCharsets.UTF_16);

    SitemapResult result = SitemapReaderTest.read("http://www.example.com/sitemap.xml", utf16, Optional.empty()).result();

    assertInstanceOf(Failure.class, result);
    assertTrue(!result.toString().contains(SECRET));
  }

  @Test
  void aGzippedXxePayloadIsRefusedToo(@TempDir Path dir) throws Exception {
    Path secretFile = Files.writeString(dir.resolve("secret.txt"), SECRET);
    byte[] gzipped = SitemapReaderTest.gzip(xxe(secretFile).getBytes(StandardCharsets.UTF_8));

    assertInstanceOf(Failure.class,
        SitemapReaderTest.read("http://www.example.com/sitemap.xml.gz", gzipped, Optional.empty()).result());
  }
}
