package org.forager.url;

/**
 * The WHATWG IPv4 parser (URL Standard, "ends in a number checker" and "IPv4 parser"): one to four
 * dot-separated numbers, each decimal, octal (leading {@code 0}) or hex ({@code 0x}), the last filling
 * the remaining bytes, so {@code 0x7f.1} is {@code 127.0.0.1}. Stateless.
 */
final class Ipv4Parser {

  /** What {@link #parse} returns when the text is not an IPv4 address. */
  static final long FAILURE = -1;
  // Larger than any valid part; numbers are clamped here so that long digit strings cannot overflow.
  private static final long TOO_BIG = 1L << 40;

  private Ipv4Parser() {}

  /** Whether an ASCII domain is to be parsed as IPv4, i.e. its last label (ignoring one trailing dot) is a number. */
  static boolean endsInNumber(CharSequence host, int from, int to) {
    int end = to;
    if (end > from && host.charAt(end - 1) == '.') {
      end--;
      if (end == from) return false;
    }
    int start = end;
    while (start > from && host.charAt(start - 1) != '.') start--;
    if (start == end) return false;
    boolean digits = true;
    for (int i = start; i < end && digits; i++) digits = isDigit(host.charAt(i));
    if (digits) return true;
    // "0x" followed by hex digits only (possibly none) would parse as a number.
    return parseNumber(host, start, end) != FAILURE;
  }

  /** The address as an unsigned 32-bit value, or {@link #FAILURE}. */
  static long parse(CharSequence host, int from, int to) {
    int end = to;
    if (end > from && host.charAt(end - 1) == '.') end--;
    long[] parts = new long[4];
    int count = 0;
    int start = from;
    for (int i = from; i <= end; i++) {
      if (i == end || host.charAt(i) == '.') {
        if (count == 4) return FAILURE;
        long n = parseNumber(host, start, i);
        if (n == FAILURE) return FAILURE;
        parts[count++] = n;
        start = i + 1;
      }
    }
    for (int i = 0; i < count - 1; i++) {
      if (parts[i] > 255) return FAILURE;
    }
    long last = parts[count - 1];
    if (last >= 1L << (8 * (5 - count))) return FAILURE;
    long address = last;
    for (int i = 0; i < count - 1; i++) address += parts[i] << (8 * (3 - i));
    return address;
  }

  /** Appends the dotted-decimal form of an address from {@link #parse}. */
  static void serialize(long address, StringBuilder out) {
    out.append((address >>> 24) & 0xFF).append('.')
        .append((address >>> 16) & 0xFF).append('.')
        .append((address >>> 8) & 0xFF).append('.')
        .append(address & 0xFF);
  }

  private static long parseNumber(CharSequence s, int from, int to) {
    if (from == to) return FAILURE;
    int radix = 10;
    if (to - from >= 2 && s.charAt(from) == '0' && (s.charAt(from + 1) | 0x20) == 'x') {
      from += 2;
      radix = 16;
    } else if (to - from >= 2 && s.charAt(from) == '0') {
      from += 1;
      radix = 8;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int digit = Character.digit(s.charAt(i), radix);
      // Character.digit accepts non-ASCII digits; the URL Standard does not.
      if (digit < 0 || s.charAt(i) > 'z') return FAILURE;
      value = Math.min(TOO_BIG, value * radix + digit);
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
