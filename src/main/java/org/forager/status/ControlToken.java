package org.forager.status;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The bearer token of a crawl's control API: 256 random bits made at the crawl's start, known to
 * whoever may read the data directory's {@code control.json} ({@link ControlFile}, mode 0600) and to
 * the status page the launching user opens with it. Immutable.
 */
public final class ControlToken {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final String value;
  private final byte[] bytes;

  private ControlToken(String value) {
    this.value = value;
    this.bytes = value.getBytes(StandardCharsets.US_ASCII);
  }

  /** A new token: 32 random bytes, base64url without padding (43 characters, safe in a URL fragment). */
  public static ControlToken generate() {
    byte[] random = new byte[32];
    RANDOM.nextBytes(random);
    return new ControlToken(Base64.getUrlEncoder().withoutPadding().encodeToString(random));
  }

  /** The token as written in {@code control.json} and sent as {@code Authorization: Bearer ...}. */
  public String value() {
    return value;
  }

  /**
   * Whether an {@code Authorization} header carries this token ({@code Bearer TOKEN}), compared in
   * constant time: how long a wrong token took to refuse tells nothing of the right one.
   */
  boolean authorizes(Optional<String> authorization) {
    if (authorization.isEmpty()) return false;
    String header = authorization.get();
    if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) return false;
    return MessageDigest.isEqual(bytes, header.substring(7).strip().getBytes(StandardCharsets.US_ASCII));
  }

  /** Never the token itself: it must not end up in a log line by accident. */
  @Override
  public String toString() {
    return "ControlToken[***]";
  }
}
