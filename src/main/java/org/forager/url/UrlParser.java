package org.forager.url;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The WHATWG basic URL parser (URL Standard, section 4.4) for the special schemes http and https only,
 * writing the normalized serialization as it goes. One instance parses one URL; not thread-safe, and
 * never shared: {@link UrlNormalizer} makes one per call.
 *
 * <p>The states of the standard collapse here because only special URLs are produced: scheme, then
 * either an authority (after any number of slashes) or a reference relative to the base, then path
 * segments, then the query. Userinfo and the fragment are parsed over and dropped.
 */
final class UrlParser {

  private final String s;
  private final int start;
  private final int end;
  private final StringBuilder out;
  // The encoding of the query (the URL Standard's "encoding"); UTF-8 unless a document says otherwise.
  private final Charset queryEncoding;

  // The base, an absolute normalized http(s) URL, and where its parts end; hasBase is false when there is
  // none, and then base and baseScheme are empty.
  private final boolean hasBase;
  private final String base;
  private final String baseScheme;
  private final int baseAuthorityEnd;
  private final int basePathEnd;
  private final int baseEnd;

  private UrlParser(String input, String base, Charset queryEncoding) {
    this.queryEncoding = queryEncoding;
    int from = 0;
    int to = input.length();
    // Leading and trailing C0 control or space are stripped.
    while (from < to && input.charAt(from) <= 0x20) from++;
    while (to > from && input.charAt(to - 1) <= 0x20) to--;
    if (containsTabOrNewline(input, from, to)) {
      StringBuilder cleaned = new StringBuilder(to - from);
      for (int i = from; i < to; i++) {
        char c = input.charAt(i);
        if (c != '\t' && c != '\n' && c != '\r') cleaned.append(c);
      }
      this.s = cleaned.toString();
      this.start = 0;
      this.end = s.length();
    } else {
      this.s = input;
      this.start = from;
      this.end = to;
    }
    this.out = new StringBuilder(end - start + base.length() + 16);

    String scheme = base.startsWith("http://") ? "http" : base.startsWith("https://") ? "https" : "";
    this.hasBase = !scheme.isEmpty();
    this.base = base;
    this.baseScheme = scheme;
    if (hasBase) {
      int hash = base.indexOf('#');
      baseEnd = hash < 0 ? base.length() : hash;
      int authorityStart = scheme.length() + 3;
      int slash = indexOf(base, '/', authorityStart, baseEnd);
      int question = indexOf(base, '?', authorityStart, baseEnd);
      baseAuthorityEnd = slash >= 0 && (question < 0 || slash < question) ? slash : question >= 0 ? question : baseEnd;
      basePathEnd = question >= 0 ? question : baseEnd;
    } else {
      baseEnd = baseAuthorityEnd = basePathEnd = 0;
    }
  }

  /** Parses an absolute URL. */
  static Optional<String> parse(String input) {
    return new UrlParser(input, "", StandardCharsets.UTF_8).run();
  }

  /**
   * Parses {@code input} against {@code base}, encoding its query with {@code queryEncoding}; a base that
   * is not an http(s) URL counts as none.
   */
  static Optional<String> parse(String base, String input, Charset queryEncoding) {
    return new UrlParser(input, base, queryEncoding).run();
  }

  private Optional<String> run() {
    int colon = schemeEnd();
    if (colon < 0) return hasBase ? relative(start) : Optional.empty();
    String scheme = specialScheme(start, colon);
    if (scheme.isEmpty()) return Optional.empty();
    int p = colon + 1;
    if (hasBase && scheme.equals(baseScheme) && !(isSlash(p) && isSlash(p + 1))) {
      // "special relative or authority state": same scheme as the base and no authority.
      return relative(p);
    }
    return authority(scheme, p);
  }

  /** Index of the ':' ending a scheme at the start of the input, or -1 when there is no scheme. */
  private int schemeEnd() {
    if (start >= end || !isAsciiAlpha(s.charAt(start))) return -1;
    for (int i = start + 1; i < end; i++) {
      char c = s.charAt(i);
      if (c == ':') return i;
      if (!isAsciiAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return -1;
    }
    return -1;
  }

  /** "http" or "https", lower-case, or empty for any other scheme. */
  private String specialScheme(int from, int to) {
    if (to - from == 4 && s.regionMatches(true, from, "http", 0, 4)) return "http";
    if (to - from == 5 && s.regionMatches(true, from, "https", 0, 5)) return "https";
    return "";
  }

  /** The "relative state": {@code input[p..]} has no scheme of its own (or the base's, without slashes). */
  private Optional<String> relative(int p) {
    if (p >= end) return Optional.of(base.substring(0, baseEnd));
    char c = s.charAt(p);
    if (isSlash(p)) {
      if (isSlash(p + 1)) return authority(baseScheme, p);
      out.append(base, 0, baseAuthorityEnd);
      return path(out.length(), p + 1);
    }
    if (c == '#') return Optional.of(base.substring(0, baseEnd));
    if (c == '?') {
      out.append(base, 0, basePathEnd);
      return query(p);
    }
    out.append(base, 0, basePathEnd);
    int pathStart = baseAuthorityEnd;
    shorten(pathStart);
    return path(pathStart, p);
  }

  /** From the slashes before an authority to the end. */
  private Optional<String> authority(String scheme, int p) {
    while (isSlash(p)) p++;
    int authorityEnd = p;
    int at = -1;
    while (authorityEnd < end) {
      char c = s.charAt(authorityEnd);
      if (c == '/' || c == '\\' || c == '?' || c == '#') break;
      if (c == '@') at = authorityEnd;
      authorityEnd++;
    }
    // Userinfo (before the last '@') is dropped: credentials must never be sent or logged.
    int hostStart = at >= 0 ? at + 1 : p;
    int colon = -1;
    boolean inBrackets = false;
    for (int i = hostStart; i < authorityEnd && colon < 0; i++) {
      char c = s.charAt(i);
      if (c == '[') inBrackets = true;
      else if (c == ']') inBrackets = false;
      else if (c == ':' && !inBrackets) colon = i;
    }
    int hostEnd = colon >= 0 ? colon : authorityEnd;
    if (hostEnd == hostStart) return Optional.empty();
    out.append(scheme).append("://");
    int hostOut = out.length();
    if (!HostParser.parse(s, hostStart, hostEnd, out)) return Optional.empty();
    // A domain's trailing dot (the root's) names the same host: dropped, unlike the URL Standard, so that
    // example.org. is no second origin of example.org, with a politeness and page budget of its own, past
    // the rules written without it (the attacker review).
    if (out.charAt(hostOut) != '[' && out.charAt(out.length() - 1) == '.') {
      while (out.length() > hostOut && out.charAt(out.length() - 1) == '.') out.setLength(out.length() - 1);
      // Without its dots the name must still be one: "foo.09." would read as a bad IPv4 address.
      if (out.length() == hostOut || Ipv4Parser.endsInNumber(out, hostOut, out.length())) return Optional.empty();
    }
    if (colon >= 0 && !appendPort(scheme, colon + 1, authorityEnd)) return Optional.empty();
    return path(out.length(), authorityEnd);
  }

  /** Appends {@code :port} unless it is empty or the scheme's default; false when it is not a port. */
  private boolean appendPort(String scheme, int from, int to) {
    if (from == to) return true;
    int port = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') return false;
      port = port * 10 + (c - '0');
      if (port > 65535) return false;
    }
    if (port != Origin.defaultPort(scheme)) out.append(':').append(port);
    return true;
  }

  /** The "path start state" at {@code p}: one leading slash belongs to the path. */
  private Optional<String> path(int pathStart, int p) {
    return segments(pathStart, isSlash(p) ? p + 1 : p);
  }

  /** The "path state": segments up to the query, fragment or end, dot segments resolved as they come. */
  private Optional<String> segments(int pathStart, int p) {
    while (true) {
      int segmentStart = p;
      while (p < end) {
        char c = s.charAt(p);
        if (c == '/' || c == '\\' || c == '?' || c == '#') break;
        p++;
      }
      boolean slash = isSlash(p);
      if (isDoubleDot(segmentStart, p)) {
        shorten(pathStart);
        if (!slash) out.append('/');
      } else if (isSingleDot(segmentStart, p)) {
        if (!slash) out.append('/');
      } else {
        out.append('/');
        PercentEncoding.append(out, s, segmentStart, p, PercentEncoding.PATH);
      }
      if (!slash) break;
      p++;
    }
    if (p < end && s.charAt(p) == '?') return query(p);
    return Optional.of(out.toString());
  }

  /** From the '?' at {@code p}: the query up to the fragment, which is dropped; an empty query is dropped. */
  private Optional<String> query(int p) {
    int queryEnd = p + 1;
    while (queryEnd < end && s.charAt(queryEnd) != '#') queryEnd++;
    if (queryEnd > p + 1) {
      out.append('?');
      PercentEncoding.appendQuery(out, s, p + 1, queryEnd, queryEncoding);
    }
    return Optional.of(out.toString());
  }

  /** Removes the last path segment, if any. */
  private void shorten(int pathStart) {
    for (int i = out.length() - 1; i >= pathStart; i--) {
      if (out.charAt(i) == '/') {
        out.setLength(i);
        return;
      }
    }
  }

  private boolean isSingleDot(int from, int to) {
    return switch (to - from) {
      case 1 -> s.charAt(from) == '.';
      case 3 -> isEncodedDot(from);
      default -> false;
    };
  }

  private boolean isDoubleDot(int from, int to) {
    return switch (to - from) {
      case 2 -> s.charAt(from) == '.' && s.charAt(from + 1) == '.';
      case 4 -> (s.charAt(from) == '.' && isEncodedDot(from + 1)) || (isEncodedDot(from) && s.charAt(from + 3) == '.');
      case 6 -> isEncodedDot(from) && isEncodedDot(from + 3);
      default -> false;
    };
  }

  private boolean isEncodedDot(int i) {
    return s.charAt(i) == '%' && s.charAt(i + 1) == '2' && (s.charAt(i + 2) | 0x20) == 'e';
  }

  private boolean isSlash(int p) {
    return p < end && (s.charAt(p) == '/' || s.charAt(p) == '\\');
  }

  private static boolean isAsciiAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean containsTabOrNewline(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') return true;
    }
    return false;
  }

  private static int indexOf(String s, char c, int from, int to) {
    int i = s.indexOf(c, from);
    return i >= 0 && i < to ? i : -1;
  }
}
