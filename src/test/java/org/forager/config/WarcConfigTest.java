package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.forager.config.CrawlConfig.Warc.Compression;
import org.forager.warc.RecordCompression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code warc} section's compression keys: {@code compression}, {@code zstd_level}, {@code gzip_engine}
 * (with {@code gzip_level}).
 */
class WarcConfigTest {

  @TempDir Path dir;

  private CrawlConfig load(String yaml) throws IOException {
    return YamlFiles.load(dir, yaml);
  }

  private String error(String yaml) throws IOException {
    return YamlFiles.error(dir, yaml);
  }

  @Test
  void gzipAtLevelOneUnlessConfigured() throws IOException {
    CrawlConfig.Warc warc = load("warc: { max_file_size: 1MiB }").warc();
    assertEquals(Compression.GZIP, warc.compression());
    assertEquals(1, warc.gzipLevel());
    assertEquals(1, warc.zstdLevel());
    assertEquals(CrawlConfig.Warc.GzipEngine.AUTO, warc.gzipEngine());
  }

  @Test
  void theGzipEngineIsChosenByName() throws IOException {
    assertEquals(CrawlConfig.Warc.GzipEngine.ZLIB, load("warc: { gzip_engine: zlib }").warc().gzipEngine());
    assertEquals("config: warc.gzip_engine: must be auto, isal, libdeflate or zlib, found \"zopfli\"",
        error("warc: { gzip_engine: zopfli }"));
  }

  @Test
  void isalAsksForTheLibraryOrSaysWhyNotInOneLine() throws IOException {
    Optional<String> unavailable = RecordCompression.isalUnavailable();
    if (unavailable.isEmpty()) {
      assertEquals(CrawlConfig.Warc.GzipEngine.ISAL,
          load("warc: { gzip_engine: isal, gzip_level: 3 }").warc().gzipEngine());
    } else {
      assertEquals("config: warc.gzip_engine: " + unavailable.get() + "; or use auto",
          error("warc: { gzip_engine: isal }"));
    }
  }

  @Test
  void isalHasNoLevelAboveThreeAndSaysSoInOneLine() throws IOException {
    assumeTrue(RecordCompression.isalUnavailable().isEmpty(), "no ISA-L here: the engine itself is refused");
    assertEquals("config: warc.gzip_engine: isal compresses at gzip_level 1 to 3 or fastest (found 6); use auto or libdeflate "
        + "for higher levels", error("warc: { gzip_engine: isal, gzip_level: 6 }"));
  }

  @Test
  void libdeflateAsksForTheLibraryOrSaysWhyNotInOneLine() throws IOException {
    Optional<String> unavailable = RecordCompression.libdeflateUnavailable();
    if (unavailable.isEmpty()) {
      assertEquals(CrawlConfig.Warc.GzipEngine.LIBDEFLATE,
          load("warc: { gzip_engine: libdeflate }").warc().gzipEngine());
    } else {
      assertEquals("config: warc.gzip_engine: " + unavailable.get() + "; or use auto",
          error("warc: { gzip_engine: libdeflate }"));
    }
  }

  @Test
  void fastestIsTheEnginesFastestModeAndZeroStillStores() throws IOException {
    assertEquals(CrawlConfig.Warc.GZIP_FASTEST, load("warc: { gzip_level: fastest }").warc().gzipLevel());
    assertEquals(0, load("warc: { gzip_level: 0 }").warc().gzipLevel());
    assertEquals("config: warc.gzip_level: must be 0 to 9 or fastest, found \"fast\"",
        error("warc: { gzip_level: fast }"));
    assertEquals("config: warc.gzip_level: must be 0 to 9 or fastest, found 1.5", error("warc: { gzip_level: 1.5 }"));
    assertEquals("config: warc.gzip_level: must be ≤ 9", error("warc: { gzip_level: 10 }"));
  }

  @Test
  void maxFileAgeIsADayUnlessSet() throws IOException {
    assertEquals(java.time.Duration.ofDays(1), load("warc: { gzip_level: 1 }").warc().maxFileAge());
    assertEquals(java.time.Duration.ofHours(6), load("warc: { max_file_age: 6h }").warc().maxFileAge());
    assertTrue(error("warc: { max_file_age: 0s }").startsWith("config: warc.max_file_age: "), error("warc: { max_file_age: 0s }"));
  }

  @Test
  void zstdWithItsLevel() throws IOException {
    CrawlConfig.Warc warc = load("warc: { compression: zstd, zstd_level: 3 }").warc();
    assertEquals(new CrawlConfig.Warc(1L << 30, 1, Compression.ZSTD, 3), warc);
  }

  @Test
  void anUnknownCompressionOrALevelOutOfRangeIsOneLine() throws IOException {
    assertEquals("config: warc.compression: must be gzip or zstd, found \"brotli\"",
        error("warc: { compression: brotli }"));
    assertEquals("config: warc.zstd_level: must be ≤ 19", error("warc: { zstd_level: 22 }"));
    assertEquals("config: warc.zstd_level: must be ≥ 1", error("warc: { zstd_level: 0 }"));
  }
}
