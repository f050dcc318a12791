package org.forager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExclusionFileTest {

  @TempDir Path tmp;

  @Test
  void domainsHostsAndPrefixesWithCommentsAreExcludedAndAChangedFileIsReRead() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "# sites we never crawl\nADS.example.org\nhost:www.example.net\n"
        + "https://example.org/private/  # staff only\n\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);

    assertEquals(Optional.of("do_not_crawl_file domain ads.example.org"), exclusions.refuses("http://ads.example.org/x"));
    assertEquals(Optional.of("do_not_crawl_file host www.example.net"), exclusions.refuses("http://www.example.net/"));
    assertEquals(Optional.empty(), exclusions.refuses("http://cdn.www.example.net/"), "host: is exact");
    assertEquals(Optional.of("do_not_crawl_file prefix https://example.org/private/"),
        exclusions.refuses("https://example.org/private/a"));
    assertEquals(Optional.empty(), exclusions.refuses("https://example.org/public"));

    Files.writeString(file, "https://example.org/public\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-02T00:00:00Z")));

    assertEquals(Optional.of("do_not_crawl_file prefix https://example.org/public"),
        exclusions.refuses("https://example.org/public"));
    assertEquals(Optional.empty(), exclusions.refuses("http://ads.example.org/x"), "the old rules are gone");
  }

  /** "example.com" in the file did not cover www.example.com: the site's pages were fetched. */
  @Test
  void aDomainLineCoversItsSubdomainsButNotLookalikes() throws Exception {
    Path file = Files.writeString(tmp.resolve("never-crawl.txt"), "example.com\n");
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    assertEquals(Optional.of("do_not_crawl_file domain example.com"), exclusions.refuses("https://www.example.com/"));
    assertEquals(Optional.of("do_not_crawl_file domain example.com"), exclusions.refuses("http://a.b.example.com:8080/x"));
    assertEquals(Optional.of("do_not_crawl_file domain example.com"), exclusions.refuses("http://example.com./"));
    assertEquals(Optional.empty(), exclusions.refuses("https://myexample.com/"));
    assertEquals(Optional.empty(), exclusions.refuses("https://example.com.evil.org/"));
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheFirstRule() throws Exception {
    Path file = Files.writeString(tmp.resolve("never-crawl.txt"), "\uFEFFexample.com\n");
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    assertEquals(Optional.of("do_not_crawl_file domain example.com"), exclusions.refuses("https://www.example.com/"));
  }

  /** Lines written un-normalized loaded without a word and never matched. */
  @Test
  void rulesWrittenUnnormalizedMatchTheUrlsTheyName() throws Exception {
    Path file = Files.writeString(tmp.resolve("never-crawl.txt"),
        "https://example.org/%7Euser/\nhttps://EXAMPLE.org/%7efoo\nbücher.example\nhost:Port.Example.org:8080\n");
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    assertTrue(exclusions.refuses("https://example.org/~user/page").isPresent());
    assertTrue(exclusions.refuses("https://example.org/~foo").isPresent());
    assertTrue(exclusions.refuses("https://www.xn--bcher-kva.example/").isPresent(), "IDN line in ASCII form");
    assertEquals(Optional.of("do_not_crawl_file host port.example.org"), exclusions.refuses("http://port.example.org/"),
        "a port on a host line excludes the host on every port");
  }

  @Test
  void aLineThatIsNoRuleIsAnErrorNamingItsLine() throws Exception {
    Path file = Files.writeString(tmp.resolve("never-crawl.txt"), "example.org\n\nexample.org/private\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExclusionFile.watch(file, 0));
    assertTrue(e.getMessage().contains("line 3: \"example.org/private\""), e.getMessage());
  }

  /** A '*' is a host character to the URL parser: "*.example.org" was read as a rule and excluded nothing. */
  @Test
  void aWildcardHostIsAnErrorNamingItsLine() throws Exception {
    for (String rule : List.of("*.example.org", "host:*.example.org", "https://*.example.org/private")) {
      Path file = Files.writeString(tmp.resolve("never-crawl.txt"), "example.com\n" + rule + "\n");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExclusionFile.watch(file, 0));
      assertTrue(e.getMessage().contains("line 2: \"" + rule + "\" is a wildcard, which would match no site: write the"
          + " domain alone, like example.org"), e.getMessage());
    }
  }

  /**
   * A file truncated to be rewritten in place (an editor, "> file") was read empty and every
   * exclusion ended until it was written again; 52 requests reached an excluded domain meanwhile.
   */
  @Test
  void aFileTruncatedForRewritingKeepsItsLastRulesAndACommentOnlyFileClearsThem() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "bad.test\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);

    Files.writeString(file, "");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-02T00:00:00Z")));
    assertTrue(exclusions.refuses("http://n1.bad.test/").isPresent(), "an empty file keeps the last rules");

    Files.writeString(file, "# no exclusions any more\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-03T00:00:00Z")));
    assertEquals(Optional.empty(), exclusions.refuses("http://n1.bad.test/"));
  }

  /** A change is read once the file has been left alone a moment, not while it may be being written. */
  @Test
  void aFileChangedThisVerySecondIsReadAtTheNextCheck() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "bad.test\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    Files.writeString(file, "bad.te"); // half written, modified now
    assertTrue(exclusions.refuses("http://n1.bad.test/").isPresent(), "not read yet");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(5)));
    assertEquals(Optional.empty(), exclusions.refuses("http://n1.bad.test/"), "read once settled");
  }

  @Test
  void aFileThatVanishesKeepsItsLastRulesAndAMissingOneIsAnError() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "ads.example.org\n");
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    Files.delete(file);
    assertEquals(Optional.of("do_not_crawl_file domain ads.example.org"), exclusions.refuses("http://ads.example.org/"));
    assertThrows(UncheckedIOException.class, () -> ExclusionFile.watch(tmp.resolve("missing.txt")));
  }
}
