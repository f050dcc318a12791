package org.forager.dns;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads IP address literals without ever asking DNS. Stateless.
 *
 * <p>Only the canonical spellings are literals here: IPv4 as four decimal numbers 0-255 without
 * leading zeros ({@code 10.0.0.5}; {@code 010.0.0.5} is octal to some parsers and decimal to others,
 * so it is refused), IPv6 as RFC 4291 section 2.2 text, with or without brackets, without a zone.
 * An IPv4-mapped IPv6 literal ({@code ::ffff:127.0.0.1}) stays an {@link Inet6Address}, as a DNS
 * AAAA answer would be (the JDK's parser turns it into an {@link Inet4Address}), so that whoever
 * judges it sees what the network would give.
 */
public final class IpLiterals {

  /**
   * Hex groups, colons and an embedded dotted quad, starting as the JDK needs to read it as a literal
   * (a hex digit or a colon); the JDK checks the rest.
   */
  private static final Pattern IPV6_CHARACTERS = Pattern.compile("(?=.*:)[0-9A-Fa-f:][0-9A-Fa-f:.]*");

  private IpLiterals() {}

  /** The address {@code text} spells, or empty when it is not an IP literal (a host name, say). */
  public static Optional<InetAddress> parse(String text) {
    String literal = unbracketed(text);
    if (!onlyLiteralCharacters(literal)) return Optional.empty();
    byte[] quad = dottedQuad(literal);
    return quad != null ? Optional.of(address(quad)) : ipv6(literal);
  }

  /**
   * Whether {@code text} is an IP literal, as {@link #parse} finds it: without making the address
   * when the text is IPv4 or no literal at all (a fetch asks for every request).
   */
  public static boolean isLiteral(String text) {
    String literal = unbracketed(text);
    if (!onlyLiteralCharacters(literal)) return false;
    return dottedQuad(literal) != null || ipv6(literal).isPresent();
  }

  /** The text inside brackets, or the text as it is. */
  private static String unbracketed(String text) {
    return text.length() > 2 && text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
  }

  /** The IPv6 address {@code literal} (without brackets) spells, or empty. */
  private static Optional<InetAddress> ipv6(String literal) {
    if (!IPV6_CHARACTERS.matcher(literal).matches()) return Optional.empty();
    InetAddress address;
    try {
      // With a ':' in it the JDK reads the text as an IPv6 literal or fails: it never looks it up.
      address = InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
    return Optional.of(address instanceof Inet4Address v4 ? mapped(v4) : address);
  }

  /**
   * Whether {@code text} has only hex digits, dots and colons, as both kinds of literal need: most
   * hosts are names and fail here at their first letter past {@code f}, without a regular
   * expression (the two matchers were 0.2 % of a crawl's CPU, asked for every request).
   */
  private static boolean onlyLiteralCharacters(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean hex = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
      if (!hex && c != '.' && c != ':') return false;
    }
    return true;
  }

  /**
   * The four bytes of {@code text} when it is four decimal numbers 0-255 joined by dots, each without
   * a leading zero; else null. By hand, not by a regular expression: every request of a crawl of
   * hosts by address asks.
   */
  private static byte[] dottedQuad(String text) {
    byte[] bytes = new byte[4];
    int at = 0;
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        if (at >= text.length() || text.charAt(at) != '.') return null;
        at++;
      }
      int start = at;
      int value = 0;
      while (at < text.length() && at - start < 3 && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
        value = value * 10 + text.charAt(at) - '0';
        at++;
      }
      int digits = at - start;
      if (digits == 0 || value > 255 || digits > 1 && text.charAt(start) == '0') return null;
      bytes[part] = (byte) value;
    }
    return at == text.length() ? bytes : null;
  }

  private static InetAddress address(byte[] quad) {
    try {
      return InetAddress.getByAddress(quad);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
  }

  /** {@code ::ffff:a.b.c.d} as an IPv6 address (RFC 4291 section 2.5.5.2). */
  private static InetAddress mapped(Inet4Address v4) {
    byte[] bytes = new byte[16];
    bytes[10] = (byte) 0xff;
    bytes[11] = (byte) 0xff;
    System.arraycopy(v4.getAddress(), 0, bytes, 12, 4);
    try {
      return Inet6Address.getByAddress(null, bytes, -1);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }
}
