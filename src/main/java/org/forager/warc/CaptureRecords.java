package org.forager.warc;

import java.io.ByteArrayInputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.forager.fetch.FetchResult;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;

/**
 * Builds the WARC/1.1 records of one fetch (WARC 1.1 sections 6.4 to 6.7): a {@code request}
 * record, then a {@code response} record, or for a 304 a {@code revisit} record with the
 * server-not-modified profile; and, for the response or revisit, what its CDXJ index line says,
 * from the values it is written with (the same as read back from the record: {@link ReadCaptures}).
 * Stateless and thread-safe.
 */
final class CaptureRecords {

  static final URI SERVER_NOT_MODIFIED = WarcRevisit.SERVER_NOT_MODIFIED_1_1;

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

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
    // WARC/1.1 allows fractions of a second (section 5.4); milliseconds are what readers expect.
    Instant date = response.startedAt().truncatedTo(ChronoUnit.MILLIS);
    Optional<String> ip = response.remoteAddress().flatMap(CaptureRecords::ipLiteral);
    UUID requestId = UUID.randomUUID();
    UUID responseId = UUID.randomUUID();
    boolean hasRequest = response.requestHead().length > 0;

    List<Entry> records = new ArrayList<>(2);
    if (hasRequest) {
      byte[] requestHead = response.requestHead();
      WarcRequest.Builder b = new WarcRequest.Builder(response.url())
          .version(MessageVersion.WARC_1_1)
          .recordId(requestId)
          .date(date)
          .concurrentTo(urn(responseId))
          .blockDigest(Digests.sha1(requestHead))
          .body(MediaType.HTTP_REQUEST, requestHead);
      ip.ifPresent(a -> b.addHeader("WARC-IP-Address", a));
      records.add(new Entry(new RecordToWrite(b.build(), List.of(requestHead)), Optional.empty()));
    }
    boolean revisit = response.status() == 304;
    byte[] head = HttpHead.of(response);
    WarcCaptureRecord capture = revisit
        ? revisit(response, head, date, ip, responseId, hasRequest ? Optional.of(requestId) : Optional.empty())
        : response(response, head, digests, date, ip, responseId,
            hasRequest ? Optional.of(requestId) : Optional.empty());
    // The block is the HTTP head, then for a response the payload: what each record's body reads.
    List<byte[]> block = revisit ? List.of(head) : List.of(head, response.rawBody());
    records.add(new Entry(new RecordToWrite(capture, block), cdxj(response, capture, date, revisit)));
    return records;
  }

  /**
   * What the record's index line says, from what it was written with: the URL and payload digest
   * as its WARC headers hold them (no parsing: they are in memory), the date it was given (the
   * line has whole seconds, which the millisecond WARC-Date keeps), and the HTTP fields as
   * {@link HttpHead} wrote them. Read back, a response whose status line jwarc cannot parse has
   * no line, a revisit one without a status; so here too.
   */
  private static Optional<CdxjLines.Fields> cdxj(FetchResult.Response r, WarcCaptureRecord record, Instant date,
      boolean revisit) {
    boolean readable = HttpHead.statusLineReadable(r);
    if (!revisit && !readable) return Optional.empty();
    return Optional.of(new CdxjLines.Fields(record.target(), date,
        revisit ? CdxjLines.Kind.REVISIT : CdxjLines.Kind.RESPONSE,
        revisit ? Optional.empty() : HttpHead.contentType(r), readable ? Optional.of(r.status()) : Optional.empty(),
        record.headers().first("WARC-Payload-Digest")));
  }

  private static WarcResponse response(FetchResult.Response r, byte[] head, BodyDigests digests, Instant date,
      Optional<String> ip, UUID id, Optional<UUID> requestId) {
    byte[] payload = r.rawBody();
    WarcResponse.Builder b = new WarcResponse.Builder(r.url())
        .version(MessageVersion.WARC_1_1)
        .recordId(id)
        .date(date)
        // The block is head then payload: SHA-1 cannot reuse the payload's digest for it, so the
        // payload is hashed a second time (docs/benchmarks.md, issue 15: about 13 µs for 30 KB).
        .blockDigest(Digests.sha1(head, payload))
        // WARC 1.1 section 5.9: the payload is the entity body after transfer decoding, which is
        // what rawBody holds (content coding kept).
        .payloadDigest(digests.payload())
        .body(MediaType.HTTP_RESPONSE, Channels.newChannel(new SequenceInputStream(
            new ByteArrayInputStream(head), new ByteArrayInputStream(payload))),
            (long) head.length + payload.length);
    ip.ifPresent(a -> b.addHeader("WARC-IP-Address", a));
    requestId.ifPresent(rid -> b.concurrentTo(urn(rid)));
    r.truncation().ifPresent(why -> b.truncated(truncationReason(why)));
    return b.build();
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

  /** Headers only: a 304 has no payload, and the profile says the content did not change. */
  private static WarcRevisit revisit(FetchResult.Response r, byte[] head, Instant date, Optional<String> ip, UUID id,
      Optional<UUID> requestId) {
    WarcRevisit.Builder b = new WarcRevisit.Builder(r.url(), SERVER_NOT_MODIFIED)
        .version(MessageVersion.WARC_1_1)
        .recordId(id)
        .date(date)
        .blockDigest(Digests.sha1(head))
        .body(MediaType.HTTP_RESPONSE, head);
    ip.ifPresent(a -> b.addHeader("WARC-IP-Address", a));
    requestId.ifPresent(rid -> b.concurrentTo(urn(rid)));
    return b.build();
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
    if (IPV4.matcher(bare).matches() || IPV6.matcher(bare).matches()) return Optional.of(a);
    return Optional.empty();
  }

  private static URI urn(UUID id) {
    return URI.create("urn:uuid:" + id);
  }
}
