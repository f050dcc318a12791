package org.forager.warc;

import java.util.Arrays;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.netpreserve.jwarc.WarcDigest;

/**
 * The SHA-1 digests of one response's body, each computed once per fetch: the WARC payload digest
 * (of the body as received, content coding kept: WARC 1.1 section 5.9) and the crawl log's content
 * digest (of the body after content decoding). When the server sent no content coding the two
 * bodies are the same bytes and one SHA-1 serves both. Where {@link Sha1Pair} is used, the response
 * record's block digest (its HTTP head, then the same body) is computed in the same pass, and the head
 * kept for the record. Immutable and thread-safe.
 */
public final class BodyDigests {

  private final WarcDigest payload;
  private final WarcDigest content;
  private final byte[] payloadBytes; // the body digested, to tell its response's record from another's
  private final byte[] head; // the response record's HTTP head when block is set, else null
  private final WarcDigest block; // of head then the payload; null when not computed here

  private BodyDigests(WarcDigest payload, WarcDigest content, byte[] payloadBytes, byte[] head, WarcDigest block) {
    this.payload = payload;
    this.content = content;
    this.payloadBytes = payloadBytes;
    this.head = head;
    this.block = block;
  }

  /** Digests the response's bodies: once when they are equal, else each. */
  public static BodyDigests of(FetchResult.Response response) {
    byte[] raw = response.rawBody();
    byte[] head = null;
    Optional<Sha1Pair.Digests> pair = Optional.empty();
    // A 304's record is a revisit: its block is the head alone, its payload not digested. The head is
    // made here only for the pair (a head is a few hundred bytes: its length cannot tip the test).
    if (response.status() != 304 && Sha1Pair.digests(0, raw.length)) {
      head = HttpHead.of(response);
      pair = Sha1Pair.of(head, raw);
    }
    WarcDigest payload = pair.map(Sha1Pair.Digests::payload).orElseGet(() -> Digests.sha1(raw));
    // Arrays.equals answers at once for the same array (the fetcher's body without coding) and
    // for a coded body (its first bytes differ); a full compare is far cheaper than a SHA-1.
    WarcDigest content = Arrays.equals(raw, response.body())
        ? payload
        : Digests.sha1(response.body());
    return pair.isPresent()
        ? new BodyDigests(payload, content, raw, head, pair.get().block())
        : new BodyDigests(payload, content, raw, null, null);
  }

  /**
   * The response record's HTTP head and the digest of its block, when computed with the payload's and
   * these are the digests of {@code response}'s body (the same array).
   */
  Optional<HeadAndBlock> headAndBlock(FetchResult.Response response) {
    if (block == null || response.rawBody() != payloadBytes) return Optional.empty();
    return Optional.of(new HeadAndBlock(head, block));
  }

  /** A response record's HTTP head and its block's digest (the head, then the payload). */
  record HeadAndBlock(byte[] head, WarcDigest block) {}

  /** The {@code WARC-Payload-Digest}: SHA-1 of the body as received after transfer decoding. */
  WarcDigest payload() {
    return payload;
  }

  /** The crawl log's {@code digest}, {@code sha1:BASE32} of the content-decoded body. */
  public String content() {
    return content.prefixedBase32();
  }
}
