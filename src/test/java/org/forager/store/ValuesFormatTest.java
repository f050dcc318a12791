package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Test;

/** Crawl records written by the previous value format (version 1) are still read. */
class ValuesFormatTest {

  private static final Instant T = Instant.parse("2026-11-21T00:00:00Z");

  @Test
  void aVersionOneCrawlRecordReadsWithNoDuplicateAndNoSimhash() {
    CrawlRecord plain = new CrawlRecord("https://a.example/", T, Outcome.FETCHED, 200, 12,
        Optional.of("text/html"), 34, Optional.of("sha1:X"), Optional.empty(), Optional.empty(), false, false,
        Optional.empty(), Optional.empty(), T.plusSeconds(60));
    byte[] v2 = Values.encodeCrawl(plain);
    // Version 1 was version 2 without its last two fields (an empty string, a false flag: 2 bytes).
    byte[] v1 = Arrays.copyOf(v2, v2.length - 2);
    v1[0] = 1;
    assertEquals(plain, Values.decodeCrawl(plain.url(), v1));

    CrawlRecord duplicate = new CrawlRecord("https://a.example/b", T, Outcome.DUPLICATE_CONTENT, 200, 12,
        Optional.empty(), 34, Optional.of("sha1:X"), Optional.empty(), Optional.empty(), false, false,
        Optional.empty(), Optional.empty(), T, Optional.of("https://a.example/"), OptionalLong.of(-1));
    assertEquals(duplicate, Values.decodeCrawl(duplicate.url(), Values.encodeCrawl(duplicate)));
    byte[] future = Values.encodeCrawl(duplicate);
    future[0] = 3;
    assertThrows(StoreException.class, () -> Values.decodeCrawl(duplicate.url(), future));
  }
}
