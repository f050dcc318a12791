package org.forager.warc;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.netpreserve.jwarc.WarcDigest;

/**
 * SHA-1 digests in the {@code sha1:BASE32} form used by WARC digest fields and by the crawl log's
 * {@code digest} (DESIGN.md). Base32 is RFC 4648 section 6, upper case; a SHA-1 needs no padding.
 * Stateless and thread-safe.
 */
public final class Digests {

  /** Cloned for each digest: looking the algorithm up among the providers each time cost more (issue 15). */
  private static final MessageDigest SHA1 = lookUp();

  private Digests() {}

  /** {@code sha1:} followed by the base32 SHA-1 of {@code data}, e.g. {@code sha1:3I42H3S6...} for no bytes. */
  public static String sha1Base32(byte[] data) {
    return sha1(data).prefixedBase32();
  }

  /** The SHA-1 of the concatenation of {@code parts}. */
  static WarcDigest sha1(byte[]... parts) {
    MessageDigest md = newSha1();
    for (byte[] part : parts) md.update(part);
    return new WarcDigest(md);
  }

  private static MessageDigest newSha1() {
    try {
      return (MessageDigest) SHA1.clone();
    } catch (CloneNotSupportedException e) {
      return lookUp(); // a provider whose digests cannot be cloned
    }
  }

  private static MessageDigest lookUp() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform must provide SHA-1 (MessageDigest's Javadoc).
      throw new AssertionError(e);
    }
  }
}
