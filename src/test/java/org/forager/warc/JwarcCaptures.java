package org.forager.warc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.forager.fetch.FetchResult;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcWriter;

/**
 * The records of a fetch as jwarc's builders make them, with given IDs: how {@link CaptureRecords}
 * built them before it wrote their fields itself, the reference its bytes are compared with.
 */
final class JwarcCaptures {

  private JwarcCaptures() {}

  static List<WarcRecord> of(FetchResult.Response response, UUID requestId, UUID responseId) {
    Instant date = response.startedAt().truncatedTo(ChronoUnit.MILLIS);
    Optional<String> ip = response.remoteAddress().flatMap(CaptureRecords::ipLiteral);
    boolean hasRequest = response.requestHead().length > 0;
    List<WarcRecord> records = new ArrayList<>(2);
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
      records.add(b.build());
    }
    byte[] head = HttpHead.of(response);
    if (response.status() == 304) {
      WarcRevisit.Builder b = new WarcRevisit.Builder(response.url(), CaptureRecords.SERVER_NOT_MODIFIED)
          .version(MessageVersion.WARC_1_1)
          .recordId(responseId)
          .date(date)
          .blockDigest(Digests.sha1(head))
          .body(MediaType.HTTP_RESPONSE, head);
      ip.ifPresent(a -> b.addHeader("WARC-IP-Address", a));
      b.addHeader("WARC-Refers-To-Target-URI", response.url());
      if (hasRequest) b.concurrentTo(urn(requestId));
      records.add(b.build());
    } else {
      byte[] payload = response.rawBody();
      WarcResponse.Builder b = new WarcResponse.Builder(response.url())
          .version(MessageVersion.WARC_1_1)
          .recordId(responseId)
          .date(date)
          .blockDigest(Digests.sha1(head, payload))
          .payloadDigest(Digests.sha1(payload))
          .body(MediaType.HTTP_RESPONSE, Channels.newChannel(new SequenceInputStream(
              new ByteArrayInputStream(head), new ByteArrayInputStream(payload))),
              (long) head.length + payload.length);
      ip.ifPresent(a -> b.addHeader("WARC-IP-Address", a));
      if (hasRequest) b.concurrentTo(urn(requestId));
      response.truncation().ifPresent(why -> b.truncated(CaptureRecords.truncationReason(why)));
      records.add(b.build());
    }
    return records;
  }

  /** What jwarc's writer writes for the record, uncompressed. */
  static byte[] written(WarcRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      new WarcWriter(Channels.newChannel(out), WarcCompression.NONE).write(record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The ID as {@link CaptureRecords} takes it. */
  static String id(UUID id) {
    return "<" + urn(id) + ">";
  }

  private static URI urn(UUID id) {
    return URI.create("urn:uuid:" + id);
  }
}
