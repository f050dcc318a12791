package org.forager.extract;

import java.nio.charset.Charset;
import java.util.Optional;
import org.forager.url.UrlNormalizer;

/**
 * The base links of a document resolve against (HTML "frozen base URL"), and the resolution of link
 * targets against it. The {@code <base href>} is resolved against the fallback base (the page URL, or
 * for an {@code iframe srcdoc} document its parent's base); one that does not parse, or is a
 * {@code data:} or {@code javascript:} URL, is ignored. A base of another scheme ({@code ftp:},
 * {@code mailto:}, …) is kept, as browsers keep it: relative targets then resolve to that scheme and
 * are dropped, and only absolute http(s) targets remain. A base longer than the longest URL kept (a
 * hostile page's: 1 MB of path) serves only the targets that need no more of it than its origin
 * (absolute, scheme-relative and root-relative ones): the others would resolve under it, longer than
 * any URL kept, and resolving each would copy it. Immutable.
 */
final class DocumentBase {

  /** The http(s) base, or null when the base has another scheme. */
  private final String base;
  /** The base of another scheme as written, when it has one ({@link #parses}); else null. */
  private final String otherBase;
  private final Charset query;
  /** Whether the base is too long to resolve against: only targets that need its origin alone are resolved. */
  private final boolean originOnly;

  private DocumentBase(String base, Charset query) {
    this(base, query, false);
  }

  private DocumentBase(String base, Charset query, boolean originOnly) {
    this(base, null, query, originOnly);
  }

  private DocumentBase(String base, String otherBase, Charset query, boolean originOnly) {
    this.base = base;
    this.otherBase = otherBase;
    this.query = query;
    this.originOnly = originOnly;
  }

  /**
   * @param fallback the normalized http(s) URL to use when there is no usable {@code <base>}
   * @param baseHref the first {@code <base href>} of the document, as written
   * @param query the encoding of the document, for the query of its URLs
   * @param maxUrlLength the longest URL kept: a longer base resolves only what needs its origin alone
   */
  static DocumentBase of(String fallback, Optional<String> baseHref, Charset query, int maxUrlLength) {
    if (baseHref.isEmpty()) return new DocumentBase(fallback, query);
    String href = baseHref.get();
    String scheme = scheme(href);
    if (scheme.isEmpty() || scheme.equals("http") || scheme.equals("https")) {
      String base = UrlNormalizer.resolve(fallback, href, query).orElse(fallback);
      if (base.length() <= maxUrlLength) return new DocumentBase(base, query);
      // The origin, with the root path: what an absolute, scheme- or root-relative target needs of it.
      return new DocumentBase(base.substring(0, base.indexOf('/', base.indexOf("//") + 2) + 1), query, true);
    }
    if (scheme.equals("data") || scheme.equals("javascript")) return new DocumentBase(fallback, query);
    // A base that does not parse is no base (HTML: the fallback base URL is used).
    if (!absoluteParses(scheme, stripped(href).substring(scheme.length() + 1))) return new DocumentBase(fallback, query);
    return new DocumentBase(null, href, query, false);
  }

  /** The base as an http(s) URL, when it is one. */
  Optional<String> url() {
    return Optional.ofNullable(base);
  }

  /** The normalized http(s) URL {@code href} leads to, if any. */
  Optional<String> resolve(String href) {
    if (originOnly) return needsOriginOnly(href) ? UrlNormalizer.resolve(base, href, query) : Optional.empty();
    if (base != null) return UrlNormalizer.resolve(base, href, query);
    // Against a base of another scheme only an absolute http(s) URL stays http(s). Resolving it against
    // an http(s) base of the other scheme parses it as absolute ("http:x" is relative to an http base only).
    return switch (scheme(href)) {
      case "http" -> UrlNormalizer.resolve("https://base.invalid/", href, query);
      case "https" -> UrlNormalizer.resolve("http://base.invalid/", href, query);
      default -> Optional.empty();
    };
  }

  /**
   * Whether {@code href} parses against this base as the URL Standard parses it, to a URL of any
   * scheme: what decides whether a browser follows a refresh to it or skips it. Exact where the result
   * is http(s) (it is then {@link #resolve}'s); for other schemes ({@link #absoluteParses}), and for a
   * relative reference under a base with an opaque path ({@code mailto:x}: only a fragment parses).
   * Rarer failures (a bad host in a scheme-relative reference under a base of another scheme) count as
   * parsing.
   */
  boolean parses(String href) {
    if (resolve(href).isPresent()) return true;
    if (originOnly && !needsOriginOnly(href)) return true; // a path, query or fragment of the long base
    String scheme = scheme(href);
    if (scheme.isEmpty()) return base == null && (!hasOpaquePath(otherBase) || stripped(href).startsWith("#"));
    if (scheme.equals("http") || scheme.equals("https")) return false; // resolve's answer: malformed
    String rest = stripped(href).substring(scheme.length() + 1);
    // "ftp:x" under an ftp: base is relative to it: only an authority ("ftp://h") is parsed anew.
    boolean relative = otherBase != null && scheme.equals(scheme(otherBase)) && !hasOpaquePath(otherBase);
    if (relative && isSpecial(scheme) && !startsWithTwoSlashes(rest)) return true;
    return absoluteParses(scheme, rest);
  }

  /**
   * Whether an absolute URL of {@code scheme} (not http(s)) parses, given what follows its colon: a
   * special scheme's host and port are read as http's ({@code file:}'s host alone, without a port); for
   * another scheme, {@link #authorityParses}.
   */
  private static boolean absoluteParses(String scheme, String rest) {
    return switch (scheme) {
      // "http:" is absolute against an https base, as "ftp:" is against any base of another scheme.
      case "ftp", "ws", "wss" -> UrlNormalizer.resolve("https://base.invalid/", "http:" + rest).isPresent();
      case "file" -> fileHostParses(rest);
      default -> authorityParses(rest);
    };
  }

  private static boolean isSpecial(String scheme) {
    return switch (scheme) {
      case "http", "https", "ftp", "ws", "wss", "file" -> true;
      default -> false;
    };
  }

  /** Whether {@code s} starts with two slashes, a backslash counting as one (special schemes). */
  private static boolean startsWithTwoSlashes(String s) {
    return s.length() >= 2 && (s.charAt(0) == '/' || s.charAt(0) == '\\') && (s.charAt(1) == '/' || s.charAt(1) == '\\');
  }

  /**
   * Whether the host of a {@code file:} URL parses, given what follows its colon: none, an empty one
   * ({@code file:///x}), a Windows drive letter where the host would be ({@code file://C:/x}: a path),
   * or a host as http's, with no port.
   */
  private static boolean fileHostParses(String rest) {
    if (!startsWithTwoSlashes(rest)) return true;
    int end = 2;
    while (end < rest.length() && "/\\?#".indexOf(rest.charAt(end)) < 0) end++;
    String host = rest.substring(2, end);
    boolean driveLetter = host.length() == 2 && isAsciiLetter(host.charAt(0)) && (host.charAt(1) == ':' || host.charAt(1) == '|');
    if (host.isEmpty() || driveLetter) return true;
    // No userinfo and no port in a file: URL; the host read by the parser as written (UrlNormalizer.host
    // would strip spaces around it first).
    boolean hasPort = host.lastIndexOf(':') > host.lastIndexOf(']');
    return host.indexOf('@') < 0 && !hasPort && UrlNormalizer.normalize("http://" + host + "/").isPresent();
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** Whether a URL of a scheme that is not special has an opaque path: no slash after its scheme. */
  private static boolean hasOpaquePath(String url) {
    String scheme = scheme(url);
    return !isSpecial(scheme) && !stripped(url).startsWith("/", scheme.length() + 1);
  }

  /**
   * Whether what follows a scheme that is not special parses: it does unless it has an authority
   * ({@code //}) whose host holds a char the URL Standard forbids in a host, or an IPv6 address that is
   * not one, or whose port is not a number up to 65535, or whose host is empty after userinfo or before
   * a port.
   */
  private static boolean authorityParses(String rest) {
    if (!rest.startsWith("//")) return true; // an opaque or absolute path
    int end = 2;
    while (end < rest.length() && "/?#".indexOf(rest.charAt(end)) < 0) end++;
    int at = rest.lastIndexOf('@', end - 1); // userinfo ends at the last '@'
    String hostAndPort = rest.substring(Math.max(at + 1, 2), end);
    if (hostAndPort.isEmpty()) return at < 2; // "foo://" parses, "foo://u@" does not
    if (hostAndPort.charAt(0) == ':') return false; // a port after an empty host
    String host = hostAndPort;
    String port = "";
    if (hostAndPort.startsWith("[")) {
      int close = hostAndPort.indexOf(']');
      if (close < 0 || UrlNormalizer.host(hostAndPort.substring(0, close + 1)).isEmpty()) return false;
      host = "";
      String after = hostAndPort.substring(close + 1);
      if (!after.isEmpty() && after.charAt(0) != ':') return false;
      if (!after.isEmpty()) port = after.substring(1);
    } else if (hostAndPort.indexOf(':') >= 0) {
      host = hostAndPort.substring(0, hostAndPort.indexOf(':'));
      port = hostAndPort.substring(hostAndPort.indexOf(':') + 1);
    }
    for (int i = 0; i < host.length(); i++) {
      if ("\0 <>[\\]^|".indexOf(host.charAt(i)) >= 0) return false;
    }
    if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) return false;
    String digits = port.replaceFirst("^0+(?=.)", "");
    return digits.length() < 5 || (digits.length() == 5 && digits.compareTo("65535") <= 0);
  }

  /**
   * A URL as the URL Standard reads it before parsing: leading and trailing C0 controls and spaces
   * stripped, tabs and newlines removed.
   */
  private static String stripped(String url) {
    int from = 0;
    int to = url.length();
    while (from < to && url.charAt(from) <= ' ') from++;
    while (to > from && url.charAt(to - 1) <= ' ') to--;
    StringBuilder out = new StringBuilder(to - from);
    for (int i = from; i < to; i++) {
      char c = url.charAt(i);
      if (c != '\t' && c != '\n' && c != '\r') out.append(c);
    }
    return out.toString();
  }

  /**
   * Whether {@code href} resolves against an http(s) base's origin alone (URL Standard): it has another
   * scheme than the base, or after its scheme if any (the base's: "http:/x" is relative to an http
   * base) it starts with a slash or backslash (scheme-relative or root-relative). A path-relative, query
   * or fragment target, or an empty one, needs the base's path.
   */
  private boolean needsOriginOnly(String href) {
    String scheme = scheme(href);
    if (!scheme.isEmpty() && !base.startsWith(scheme + ":")) return true;
    int i = 0;
    while (i < href.length() && href.charAt(i) <= ' ') i++; // leading C0 controls and spaces are stripped
    if (!scheme.isEmpty()) i = href.indexOf(':', i) + 1;
    for (; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c != '\t' && c != '\n' && c != '\r') return c == '/' || c == '\\'; // tabs and newlines are removed
    }
    return false;
  }

  /**
   * The lower-case scheme of a URL as the URL Standard reads it (leading and trailing C0 controls and
   * spaces stripped, tabs and newlines removed), or "" when it has none.
   */
  static String scheme(String url) {
    StringBuilder scheme = new StringBuilder();
    int i = 0;
    while (i < url.length() && url.charAt(i) <= ' ') i++;
    for (; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') continue;
      if (c == ':') return scheme.isEmpty() ? "" : scheme.toString();
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      boolean other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
      if (!letter && !(other && !scheme.isEmpty())) return "";
      scheme.append(Character.toLowerCase(c));
    }
    return "";
  }
}
