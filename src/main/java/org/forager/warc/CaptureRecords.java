package org.forager.warc;

import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;

/**
 * Builds the WARC/1.1 records of one fetch (WARC 1.1 sections 6.4 to 6.7): a {@code request}
 * record, then a {@code response} record, or for a 304 a {@code revisit} record with the
 * server-not-modified profile; and, for the response or revisit, what its CDXJ index line says,
 * from the values it is written with (the same as read back from the record: {@link ReadCaptures}).
 * Stateless and thread-safe.
 *
 * <p>The header fields are written here, not by jwarc's record builders, byte for byte as those
 * write them (fields in the case-insensitive order of their names, values as jwarc formats them:
 * {@code CaptureRecordsTest} compares): the builders cost a record a sorted map, a media type and a
 * URI parsed back to text, and a random UUID from the platform's locked generator each, about 2 %
 * of a crawl's CPU (docs/benchmarks.md, issue 15).
 */
final class CaptureRecords {

  static final URI SERVER_NOT_MODIFIED = WarcRevisit.SERVER_NOT_MODIFIED_1_1;

  private static final String VERSION = MessageVersion.WARC_1_1.toString();
  private static final String HTTP_REQUEST = MediaType.HTTP_REQUEST.toString();
  private static final String HTTP_RESPONSE = MediaType.HTTP_RESPONSE.toString();
  private static final String SERVER_NOT_MODIFIED_PROFILE = SERVER_NOT_MODIFIED.toString();
  private static final RecordIds IDS = new RecordIds();

  /**
   * A record to write, with its index line's fields when an index lists it.
   *
   * @param cdxj empty for a record without an index line (a request)
   */
  record Entry(RecordToWrite record, Optional<CdxjLines.Fields> cdxj) {}

  private CaptureRecords() {}

  /**
   * The records to write, in order, given the body's digests. The request record is left out when
   * the fetcher gave no request head (there is nothing to store that a reader could parse).
   */
  static List<Entry> of(FetchResult.Response response, BodyDigests digests) {
    return of(response, digests, IDS.next(), IDS.next());
  }

  /** As {@link #of(FetchResult.Response, BodyDigests)}, with the records' IDs ({@code <urn:uuid:...>}). */
  static List<Entry> of(FetchResult.Response response, BodyDigests digests, String requestId, String responseId) {
    // WARC/1.1 allows fractions of a second (section 5.4); milliseconds are what readers expect.
    Instant date = response.startedAt().truncatedTo(ChronoUnit.MILLIS);
    String warcDate = InstantText.of(date); // ISO 8601 in UTC, the fraction in groups of three digits as jwarc has it
    Optional<String> ip = response.remoteAddress().flatMap(CaptureRecords::ipLiteral);
    boolean hasRequest = response.requestHead().length > 0;

    List<Entry> records = new ArrayList<>(2);
    if (hasRequest) {
      byte[] requestHead = response.requestHead();
      Fields f = new Fields(10)
          .add("Content-Length", Integer.toString(requestHead.length))
          .add("Content-Type", HTTP_REQUEST)
          .add("WARC-Block-Digest", Digests.sha1(requestHead).prefixedBase32())
          .add("WARC-Concurrent-To", responseId)
          .add("WARC-Date", warcDate);
      ip.ifPresent(a -> f.add("WARC-IP-Address", a));
      f.add("WARC-Record-ID", requestId)
          .add("WARC-Target-URI", response.url())
          .add("WARC-Type", "request");
      records.add(new Entry(new RecordToWrite(VERSION, f.list, List.of(requestHead)), Optional.empty()));
    }
    boolean revisit = response.status() == 304;
    Optional<BodyDigests.HeadAndBlock> computed = revisit ? Optional.empty() : digests.headAndBlock(response);
    byte[] head = computed.map(BodyDigests.HeadAndBlock::head).orElseGet(() -> HttpHead.of(response));
    // The block is the HTTP head, then for a response the payload.
    List<byte[]> block = revisit ? List.of(head) : List.of(head, response.rawBody());
    Optional<String> payloadDigest = revisit ? Optional.empty() : Optional.of(digests.payload().prefixedBase32());
    Fields f = new Fields(12)
        .add("Content-Length", Long.toString(RecordToWrite.blockLength(block)))
        .add("Content-Type", HTTP_RESPONSE)
        // The block is head then payload: SHA-1 cannot reuse the payload's digest for it, so the
        // payload is hashed a second time, in the same pass where Sha1Pair is used (BodyDigests).
        .add("WARC-Block-Digest", computed.map(BodyDigests.HeadAndBlock::block)
            .orElseGet(() -> revisit ? Digests.sha1(head) : Digests.sha1(head, response.rawBody()))
            .prefixedBase32());
    if (hasRequest) f.add("WARC-Concurrent-To", requestId);
    f.add("WARC-Date", warcDate);
    ip.ifPresent(a -> f.add("WARC-IP-Address", a));
    // WARC 1.1 section 5.9: the payload is the entity body after transfer decoding, which is what
    // rawBody holds (content coding kept).
    payloadDigest.ifPresent(d -> f.add("WARC-Payload-Digest", d));
    if (revisit) f.add("WARC-Profile", SERVER_NOT_MODIFIED_PROFILE);
    f.add("WARC-Record-ID", responseId);
    // Replay tools find the capture a server-not-modified revisit stands for by this field alone
    // (pywb, wabac.js; neither reads WARC-Profile): the URI is the record's own. No WARC-Refers-To-Date:
    // the store keeps no capture time that matches a record's WARC-Date, and both tools do without it.
    if (revisit) f.add("WARC-Refers-To-Target-URI", response.url());
    f.add("WARC-Target-URI", response.url());
    if (!revisit) {
      response.truncation().ifPresent(why ->
          f.add("WARC-Truncated", truncationReason(why).name().toLowerCase(Locale.ROOT)));
    }
    f.add("WARC-Type", revisit ? "revisit" : "response");
    records.add(new Entry(new RecordToWrite(VERSION, f.list, block), cdxj(response, date, revisit, payloadDigest)));
    return records;
  }

  /** Header fields in the order they are added. */
  private static final class Fields {
    final List<RecordToWrite.Field> list;

    Fields(int capacity) {
      list = new ArrayList<>(capacity);
    }

    Fields add(String name, String value) {
      list.add(new RecordToWrite.Field(name, value));
      return this;
    }
  }

  /**
   * What the record's index line says, from what it was written with: the URL and payload digest
   * as its WARC headers hold them (no parsing: they are in memory), the date it was given (the
   * line has whole seconds, which the millisecond WARC-Date keeps), and the HTTP fields as
   * {@link HttpHead} wrote them. Read back, a response whose status line jwarc cannot parse has
   * no line, a revisit one without a status; so here too.
   */
  private static Optional<CdxjLines.Fields> cdxj(FetchResult.Response r, Instant date, boolean revisit,
      Optional<String> payloadDigest) {
    boolean readable = HttpHead.statusLineReadable(r);
    if (!revisit && !readable) return Optional.empty();
    return Optional.of(new CdxjLines.Fields(r.url(), date,
        revisit ? CdxjLines.Kind.REVISIT : CdxjLines.Kind.RESPONSE,
        revisit ? Optional.empty() : HttpHead.contentType(r), readable ? Optional.of(r.status()) : Optional.empty(),
        payloadDigest));
  }

  /** WARC 1.1 section 5.13: why the payload is shorter than what the server sent. */
  static WarcTruncationReason truncationReason(FetchResult.Truncation why) {
    return switch (why) {
      case MAX_PAGE_BYTES, MAX_DECOMPRESSION_RATIO -> WarcTruncationReason.LENGTH;
      case DEADLINE -> WarcTruncationReason.TIME;
      case CONNECTION_CLOSED -> WarcTruncationReason.DISCONNECT;
      case UNDECODABLE -> WarcTruncationReason.UNSPECIFIED;
    };
  }

  /**
   * The address as WARC-IP-Address wants it (an IP literal, section 5.11), or empty when the
   * fetcher's text is not one. Accepts {@code InetAddress.toString()}'s {@code host/1.2.3.4} and
   * bracketed IPv6 too.
   */
  static Optional<String> ipLiteral(String address) {
    String a = address.substring(address.lastIndexOf('/') + 1).strip();
    if (a.startsWith("[") && a.endsWith("]")) a = a.substring(1, a.length() - 1);
    int zone = a.indexOf('%');
    String bare = zone < 0 ? a : a.substring(0, zone);
    return isIpv4(bare) || isIpv6(bare) ? Optional.of(a) : Optional.empty();
  }

  /** Four groups of one to three ASCII digits, dot-separated (told without a regular expression: a page each). */
  private static boolean isIpv4(String s) {
    int groups = 0;
    int digits = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (++digits > 3) return false;
      } else if (c == '.' && digits > 0 && groups < 3) {
        groups++;
        digits = 0;
      } else {
        return false;
      }
    }
    return groups == 3 && digits > 0;
  }

  /** Hex digits, colons and dots only, with a colon among them. */
  private static boolean isIpv6(String s) {
    boolean colon = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ':') {
        colon = true;
      } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.')) {
        return false;
      }
    }
    return colon;
  }
}
