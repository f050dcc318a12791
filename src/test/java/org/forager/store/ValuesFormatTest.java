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
    future[0] = 4;
    assertThrows(StoreException.class, () -> Values.decodeCrawl(duplicate.url(), future));
  }

  @Test
  void aVersionTwoUrlRecordReadsAsPriorityOneWithNoInlinksNorHops() {
    UrlRecord ranked = new UrlRecord("https://a.example/p", 2, Optional.of("https://a.example/"), T, 0,
        Optional.empty(), Instant.EPOCH, Ranking.dequantize(1234), 7, 3);
    assertEquals(ranked, Values.decodeUrl(ranked.url(), Values.encodeUrl(ranked)));
    byte[] v3 = Values.encodeUrl(ranked);
    // Version 2 had no priority, inlinks nor hops: three one- or two-byte varints before the last flag.
    byte[] tail = {v3[v3.length - 1]};
    int rankBytes = 2 + 1 + 1; // 1234 takes two varint bytes, 7 and 3 one each
    byte[] v2 = new byte[v3.length - rankBytes];
    System.arraycopy(v3, 0, v2, 0, v3.length - rankBytes - 1);
    v2[v2.length - 1] = tail[0];
    v2[0] = 2;
    assertEquals(new UrlRecord(ranked.url(), 2, ranked.discoveredFrom(), T, 0, Optional.empty(), Instant.EPOCH),
        Values.decodeUrl(ranked.url(), v2));
  }

  @Test
  void aVersionTwoDueEntryReadsAsPriorityOne() {
    Values.DueEntry entry = new Values.DueEntry(3, Optional.of("\"e\""), Optional.empty(), 99, 2);
    assertEquals(entry, Values.decodeDue(Values.encodeDue(entry)));
    byte[] v3 = Values.encodeDue(entry);
    byte[] v2 = Arrays.copyOf(v3, v3.length - 2);
    v2[0] = 2;
    assertEquals(new Values.DueEntry(3, Optional.of("\"e\""), Optional.empty(), 0xFFFF, 0), Values.decodeDue(v2));
  }
}
