package org.forager.url;

import java.util.Optional;

/**
 * The WHATWG IPv6 parser and serializer (URL Standard, "IPv6 parser" and "IPv6 serializer"): accepts
 * {@code ::} compression and a trailing dotted IPv4 part, and writes the shortest form, lower-case,
 * with the first longest run of two or more zero pieces compressed (as RFC 5952 section 4.2). Stateless.
 */
final class Ipv6Parser {

  private Ipv6Parser() {}

  /** Parses the text between the brackets and appends {@code [serialized]}; false when it is not IPv6. */
  static boolean parseAndSerialize(CharSequence s, int from, int to, StringBuilder out) {
    Optional<int[]> pieces = parse(s, from, to);
    if (pieces.isEmpty()) return false;
    out.append('[');
    serialize(pieces.get(), out);
    out.append(']');
    return true;
  }

  static Optional<int[]> parse(CharSequence s, int from, int to) {
    int[] address = new int[8];
    int pieceIndex = 0;
    int compress = -1;
    int p = from;
    if (p < to && s.charAt(p) == ':') {
      if (p + 1 >= to || s.charAt(p + 1) != ':') return Optional.empty();
      p += 2;
      compress = ++pieceIndex;
    }
    while (p < to) {
      if (pieceIndex == 8) return Optional.empty();
      if (s.charAt(p) == ':') {
        if (compress != -1) return Optional.empty();
        p++;
        compress = ++pieceIndex;
        continue;
      }
      int value = 0;
      int length = 0;
      while (length < 4 && p < to && Character.digit(s.charAt(p), 16) >= 0 && s.charAt(p) < 0x80) {
        value = value * 16 + Character.digit(s.charAt(p), 16);
        p++;
        length++;
      }
      if (p < to && s.charAt(p) == '.') {
        if (length == 0) return Optional.empty();
        p -= length;
        if (pieceIndex > 6) return Optional.empty();
        int numbersSeen = 0;
        while (p < to) {
          int ipv4Piece = -1;
          if (numbersSeen > 0) {
            if (s.charAt(p) == '.' && numbersSeen < 4) p++;
            else return Optional.empty();
          }
          if (p >= to || !isDigit(s.charAt(p))) return Optional.empty();
          while (p < to && isDigit(s.charAt(p))) {
            int number = s.charAt(p) - '0';
            if (ipv4Piece == -1) ipv4Piece = number;
            else if (ipv4Piece == 0) return Optional.empty();
            else ipv4Piece = ipv4Piece * 10 + number;
            if (ipv4Piece > 255) return Optional.empty();
            p++;
          }
          address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
          numbersSeen++;
          if (numbersSeen == 2 || numbersSeen == 4) pieceIndex++;
        }
        if (numbersSeen != 4) return Optional.empty();
        break;
      } else if (p < to && s.charAt(p) == ':') {
        p++;
        if (p >= to) return Optional.empty();
      } else if (p < to) {
        return Optional.empty();
      }
      address[pieceIndex++] = value;
    }
    if (compress != -1) {
      int swaps = pieceIndex - compress;
      pieceIndex = 7;
      while (pieceIndex != 0 && swaps > 0) {
        int tmp = address[pieceIndex];
        address[pieceIndex] = address[compress + swaps - 1];
        address[compress + swaps - 1] = tmp;
        pieceIndex--;
        swaps--;
      }
    } else if (pieceIndex != 8) {
      return Optional.empty();
    }
    return Optional.of(address);
  }

  static void serialize(int[] address, StringBuilder out) {
    // The first longest run of at least two zero pieces is compressed.
    int compress = -1;
    int best = 1;
    for (int i = 0; i < 8; ) {
      if (address[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && address[j] == 0) j++;
      if (j - i > best) {
        best = j - i;
        compress = i;
      }
      i = j;
    }
    boolean ignore0 = false;
    for (int i = 0; i < 8; i++) {
      if (ignore0 && address[i] == 0) continue;
      ignore0 = false;
      if (compress == i) {
        out.append(i == 0 ? "::" : ":");
        ignore0 = true;
        continue;
      }
      out.append(Integer.toHexString(address[i]));
      if (i != 7) out.append(':');
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
