package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.WarcRecord;

/**
 * The records of a fetch: their bytes are what jwarc's builders and writer make for the same fetch
 * and IDs (the fields' order, the date's and digests' forms, every optional field), and their IDs
 * are random version 4 UUIDs.
 */
class CaptureRecordsTest {

  @Test
  void ipLiteralsAreKeptAndAnythingElseIsDropped() {
    assertEquals(Optional.of("93.184.216.34"), CaptureRecords.ipLiteral("93.184.216.34"));
    assertEquals(Optional.of("2001:db8::1"), CaptureRecords.ipLiteral("2001:db8::1"));
    assertEquals(Optional.of("::1"), CaptureRecords.ipLiteral("[::1]"));
    assertEquals(Optional.of("127.0.0.1"), CaptureRecords.ipLiteral("localhost/127.0.0.1"));
    assertEquals(Optional.of("127.0.0.1"), CaptureRecords.ipLiteral("/127.0.0.1"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("example.org"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral(""));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("1.2.3"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("1.2.3.4.5"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("1.2.3.1234"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("1..3.4"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("1.2.3.4."));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("\u0661.2.3.4"), "digits are ASCII digits");
    assertEquals(Optional.of("fe80::1%eth0"), CaptureRecords.ipLiteral("/fe80::1%eth0"));
    assertEquals(Optional.of("::ffff:1.2.3.4"), CaptureRecords.ipLiteral("[::ffff:1.2.3.4]"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("fe80::g"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("abcd"), "no colon");
  }

  @Test
  void everyVariantOfAFetchIsWrittenAsJwarcsBuildersWriteIt() {
    List<Instant> dates = List.of(Instant.parse("2026-03-01T12:34:56Z"), Instant.parse("2026-03-01T12:34:56.100Z"),
        Instant.parse("2026-03-01T12:34:56.120Z"), Instant.parse("2026-03-01T12:34:56.789123456Z"),
        Instant.parse("1999-12-31T23:59:59.999999Z"));
    List<Optional<String>> addresses = List.of(Optional.of("127.0.0.1"), Optional.of("[2001:db8::1]"),
        Optional.of("example.org"), Optional.empty());
    List<Optional<FetchResult.Truncation>> cuts = new ArrayList<>();
    cuts.add(Optional.empty());
    for (FetchResult.Truncation t : FetchResult.Truncation.values()) cuts.add(Optional.of(t));
    byte[] body = "<p>café <a href=/x>x</a>".getBytes(UTF_8);
    int compared = 0;
    for (Instant date : dates) {
      for (Optional<String> address : addresses) {
        for (Optional<FetchResult.Truncation> cut : cuts) {
          for (int status : new int[] {200, 304, 404}) {
            for (boolean withRequest : new boolean[] {true, false}) {
              for (String url : List.of("https://example.org/a?b=c", "https://例え.jp/página?q=ü")) {
                FetchResult.Response r = new FetchResult.Response(url, date, 42,
                    withRequest ? Responses.requestHead(url) : new byte[0], address, "HTTP/1.1", status, "Whatever",
                    List.of(new Header("Content-Type", "text/html"), new Header("X-Note", "ü")),
                    status == 304 ? new byte[0] : body, status == 304 ? new byte[0] : body, cut);
                compared += compare(r);
              }
            }
          }
        }
      }
    }
    assertEquals(dates.size() * addresses.size() * cuts.size() * 3 * 2 * 2 * 3 / 2, compared,
        "records compared: two for a fetch with a request head, one without");
  }

  /** Compares the fetch's records with jwarc's; returns how many. */
  private static int compare(FetchResult.Response r) {
    UUID requestId = UUID.randomUUID();
    UUID responseId = UUID.randomUUID();
    List<CaptureRecords.Entry> entries = CaptureRecords.of(r, BodyDigests.of(r), JwarcCaptures.id(requestId),
        JwarcCaptures.id(responseId));
    List<WarcRecord> references = JwarcCaptures.of(r, requestId, responseId);
    assertEquals(references.size(), entries.size(), r.url());
    RecordBytes bytes = new RecordBytes();
    for (int i = 0; i < entries.size(); i++) {
      try (RecordBytes.Serialized s = bytes.serialize(entries.get(i).record())) {
        byte[] expected = JwarcCaptures.written(references.get(i));
        assertArrayEquals(expected, Arrays.copyOf(s.bytes(), s.length()),
            () -> r.url() + " " + r.status() + " " + r.startedAt() + " " + r.remoteAddress() + " " + r.truncation()
                + "\n" + new String(expected, UTF_8));
      }
    }
    return entries.size();
  }

  @Test
  void recordIdsAreDistinctVersionFourUuids() {
    Pattern form = Pattern.compile("<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>");
    RecordIds ids = new RecordIds();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 2_000; i++) { // several blocks of the generator
      String id = ids.next();
      assertTrue(form.matcher(id).matches(), id);
      assertTrue(seen.add(id), "repeated: " + id);
      UUID uuid = UUID.fromString(id.substring("<urn:uuid:".length(), id.length() - 1));
      assertEquals(4, uuid.version());
      assertEquals(2, uuid.variant());
    }
  }
}
