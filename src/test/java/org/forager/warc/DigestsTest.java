package org.forager.warc;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DigestsTest {

  @Test
  void sha1Base32OfKnownInputs() {
    // The empty digest is the one seen on empty payloads in Heritrix and wget WARCs; "abc" is the
    // FIPS 180 test vector a9993e36...d89d, base32-encoded (RFC 4648) with Python's base64.b32encode.
    assertEquals("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", Digests.sha1Base32(new byte[0]));
    assertEquals("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5", Digests.sha1Base32("abc".getBytes(US_ASCII)));
  }
}
