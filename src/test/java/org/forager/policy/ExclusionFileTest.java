package org.forager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExclusionFileTest {

  @TempDir Path tmp;

  @Test
  void hostsAndPrefixesWithCommentsAreExcludedAndAChangedFileIsReRead() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "# sites we never crawl\nADS.example.org\nhttps://example.org/private/  # staff only\n\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);

    assertEquals(Optional.of("do_not_crawl_file host ads.example.org"), exclusions.refuses("http://ads.example.org/x"));
    assertEquals(Optional.of("do_not_crawl_file prefix https://example.org/private/"),
        exclusions.refuses("https://example.org/private/a"));
    assertEquals(Optional.empty(), exclusions.refuses("https://example.org/public"));

    Files.writeString(file, "https://example.org/public\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-02T00:00:00Z")));

    assertEquals(Optional.of("do_not_crawl_file prefix https://example.org/public"),
        exclusions.refuses("https://example.org/public"));
    assertEquals(Optional.empty(), exclusions.refuses("http://ads.example.org/x"), "the old rules are gone");
  }

  @Test
  void aFileThatVanishesKeepsItsLastRulesAndAMissingOneIsAnError() throws Exception {
    Path file = tmp.resolve("never-crawl.txt");
    Files.writeString(file, "ads.example.org\n");
    ExclusionFile exclusions = ExclusionFile.watch(file, 0);
    Files.delete(file);
    assertEquals(Optional.of("do_not_crawl_file host ads.example.org"), exclusions.refuses("http://ads.example.org/"));
    assertThrows(UncheckedIOException.class, () -> ExclusionFile.watch(tmp.resolve("missing.txt")));
  }
}
