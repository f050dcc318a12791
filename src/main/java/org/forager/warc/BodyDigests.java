package org.forager.warc;

import java.util.Arrays;
import org.forager.fetch.FetchResult;
import org.netpreserve.jwarc.WarcDigest;

/**
 * The SHA-1 digests of one response's body, each computed once per fetch: the WARC payload digest
 * (of the body as received, content coding kept: WARC 1.1 section 5.9) and the crawl log's content
 * digest (of the body after content decoding). When the server sent no content coding the two
 * bodies are the same bytes and one SHA-1 serves both. Immutable and thread-safe.
 */
public final class BodyDigests {

  private final WarcDigest payload;
  private final WarcDigest content;

  private BodyDigests(WarcDigest payload, WarcDigest content) {
    this.payload = payload;
    this.content = content;
  }

  /** Digests the response's bodies: once when they are equal, else each. */
  public static BodyDigests of(FetchResult.Response response) {
    WarcDigest payload = Digests.sha1(response.rawBody());
    // Arrays.equals answers at once for the same array (the fetcher's body without coding) and
    // for a coded body (its first bytes differ); a full compare is far cheaper than a SHA-1.
    WarcDigest content = Arrays.equals(response.rawBody(), response.body())
        ? payload
        : Digests.sha1(response.body());
    return new BodyDigests(payload, content);
  }

  /** The {@code WARC-Payload-Digest}: SHA-1 of the body as received after transfer decoding. */
  WarcDigest payload() {
    return payload;
  }

  /** The crawl log's {@code digest}, {@code sha1:BASE32} of the content-decoded body. */
  public String content() {
    return content.prefixedBase32();
  }
}
