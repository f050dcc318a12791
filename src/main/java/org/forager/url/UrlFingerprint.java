package org.forager.url;

/**
 * A 64-bit hash of a URL string, for tables that remember URLs by it alone and take two URLs of equal
 * hashes for one another (about one chance in 2^64 a comparison). Never 0, which such tables keep for
 * an empty slot. Not stable across versions: never stored.
 */
public final class UrlFingerprint {

  private UrlFingerprint() {}

  /** FNV-1a over the UTF-16 code units, then murmur3's 64-bit finalizer (fmix64) so that every bit mixes. */
  public static long of(String url) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < url.length(); i++) {
      h ^= url.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
