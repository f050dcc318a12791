package org.forager.url;

/**
 * A 64-bit hash of a URL string, for tables that remember URLs by it alone and take two URLs of equal
 * hashes for one another (about one chance in 2^64 a comparison). Never 0, which such tables keep for
 * an empty slot. Not stable across versions: never stored.
 */
public final class UrlFingerprint {

  private static final long BASIS = 0xcbf29ce484222325L; // FNV-1a 64's offset basis and prime
  private static final long PRIME = 0x100000001b3L;

  private UrlFingerprint() {}

  /**
   * FNV-1a over the UTF-16 code units in four interleaved lanes (unit i goes to lane i mod 4), the lanes
   * and the length folded by multiply and add, then murmur3's 64-bit finalizer (fmix64) so that every
   * bit mixes. Four lanes: one FNV-1a chain waits on a multiply for every char; four run side by side
   * (a crawl fingerprints about 45 URLs a page: issue 15).
   */
  public static long of(String url) {
    long a = BASIS;
    long b = BASIS ^ 0x9e3779b97f4a7c15L;
    long c = BASIS ^ 0xc2b2ae3d27d4eb4fL;
    long d = BASIS ^ 0x165667b19e3779f9L;
    int n = url.length();
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      a = (a ^ url.charAt(i)) * PRIME;
      b = (b ^ url.charAt(i + 1)) * PRIME;
      c = (c ^ url.charAt(i + 2)) * PRIME;
      d = (d ^ url.charAt(i + 3)) * PRIME;
    }
    if (i < n) a = (a ^ url.charAt(i)) * PRIME;
    if (i + 1 < n) b = (b ^ url.charAt(i + 1)) * PRIME;
    if (i + 2 < n) c = (c ^ url.charAt(i + 2)) * PRIME;
    long h = ((a * 0x9e3779b97f4a7c15L + b) * 0xc2b2ae3d27d4eb4fL + c) * 0x165667b19e3779f9L + d + n;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
