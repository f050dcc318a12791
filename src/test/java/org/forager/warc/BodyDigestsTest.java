package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.junit.jupiter.api.Test;

/** One SHA-1 per body: the payload digest and the crawl log's digest, equal or apart as they must be. */
class BodyDigestsTest {

  @Test
  void aBodyWithoutContentCodingIsHashedOnceForBoth() {
    byte[] body = "<p>plain</p>".getBytes(UTF_8);
    BodyDigests d = BodyDigests.of(Responses.response("http://example.org/", 200, List.of(), body, body,
        Optional.empty()));
    assertEquals(Digests.sha1Base32(body), d.content());
    assertEquals(Digests.sha1Base32(body), d.payload().prefixedBase32());
  }

  @Test
  void equalBodiesInTwoArraysShareTheDigestToo() {
    byte[] body = "<p>plain</p>".getBytes(UTF_8);
    BodyDigests d = BodyDigests.of(Responses.response("http://example.org/", 200, List.of(), body.clone(), body,
        Optional.empty()));
    assertEquals(Digests.sha1Base32(body), d.content());
    assertEquals(d.content(), d.payload().prefixedBase32());
  }

  @Test
  void aGzipBodyHasThePayloadDigestOfTheWireBytesAndTheLogDigestOfTheDecodedOnes() {
    byte[] decoded = "<p>coded</p>".getBytes(UTF_8);
    byte[] raw = Responses.gzip(decoded);
    FetchResult.Response response = Responses.response("http://example.org/", 200,
        List.of(new Header("Content-Encoding", "gzip")), raw, decoded, Optional.empty());
    BodyDigests d = BodyDigests.of(response);
    assertEquals(Digests.sha1Base32(decoded), d.content());
    assertEquals(Digests.sha1Base32(raw), d.payload().prefixedBase32());
    assertNotEquals(d.content(), d.payload().prefixedBase32());
  }
}
