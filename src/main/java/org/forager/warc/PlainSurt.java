package org.forager.warc;

/**
 * The SURT of a plain URL, computed in one pass: the same string jwarc's
 * {@code URIs.toNormalizedSurt} makes of it (which the CDXJ index must match), without its regular
 * expressions and the strings it builds per step (three quarters of a CDXJ line's CPU on the bench).
 *
 * <p>Plain: {@code http://} or {@code https://}, a host of lower-case letters, digits, hyphens and
 * dots between labels, an optional port of digits, and a path of visible ASCII without {@code %},
 * {@code (} or {@code \}, with no query or fragment: most URLs a crawl records. For such a URL
 * jwarc's steps reduce to these: a leading {@code www}, {@code www2} … label dropped, the labels
 * reversed and joined by commas, the port kept unless it is the scheme's default, {@code )}, then the
 * path lower-cased, its empty and {@code .} segments dropped and each {@code ..} taking the segment
 * before it away, {@code /} when nothing is left. Anything else is {@code null}: the caller asks
 * jwarc. Stateless.
 */
final class PlainSurt {

  private PlainSurt() {}

  /** The SURT of {@code url} when it is plain, else {@code null}. */
  static String of(String url) {
    int hostStart;
    boolean https;
    if (url.startsWith("http://")) {
      hostStart = 7;
      https = false;
    } else if (url.startsWith("https://")) {
      hostStart = 8;
      https = true;
    } else {
      return null;
    }
    int n = url.length();
    int authorityEnd = hostStart;
    while (authorityEnd < n && url.charAt(authorityEnd) != '/') authorityEnd++;
    int hostEnd = authorityEnd;
    for (int i = hostStart; i < authorityEnd; i++) {
      if (url.charAt(i) == ':') {
        hostEnd = i;
        break;
      }
    }
    if (!isPlainHost(url, hostStart, hostEnd) || !isPort(url, hostEnd, authorityEnd)) return null;
    for (int i = authorityEnd; i < n; i++) {
      char c = url.charAt(i);
      if (c <= ' ' || c >= 0x7f || c == '%' || c == '(' || c == '\\' || c == '?' || c == '#') return null;
    }
    StringBuilder surt = new StringBuilder(n + 4);
    appendReversedHost(surt, url, withoutWww(url, hostStart, hostEnd), hostEnd);
    if (hostEnd < authorityEnd) {
      String port = url.substring(hostEnd + 1, authorityEnd);
      if (!port.equals(https ? "443" : "80")) surt.append(':').append(port);
    }
    surt.append(')');
    appendPath(surt, url, authorityEnd, n);
    return surt.toString();
  }

  /** Labels of lower-case letters, digits and hyphens, joined by single dots. */
  private static boolean isPlainHost(String url, int from, int to) {
    if (from == to || url.charAt(from) == '.' || url.charAt(to - 1) == '.') return false;
    for (int i = from; i < to; i++) {
      char c = url.charAt(i);
      boolean label = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      if (!label && (c != '.' || url.charAt(i - 1) == '.')) return false;
    }
    return true;
  }

  /** Nothing, or a colon and one digit or more. */
  private static boolean isPort(String url, int from, int to) {
    if (from == to) return true;
    if (to - from < 2) return false;
    for (int i = from + 1; i < to; i++) if (url.charAt(i) < '0' || url.charAt(i) > '9') return false;
    return true;
  }

  /** Where the host starts once a first label {@code www} with digits after it, if any, is dropped. */
  private static int withoutWww(String url, int from, int to) {
    if (!url.startsWith("www", from)) return from;
    int i = from + 3;
    while (i < to && url.charAt(i) >= '0' && url.charAt(i) <= '9') i++;
    return i < to && url.charAt(i) == '.' ? i + 1 : from;
  }

  private static void appendReversedHost(StringBuilder surt, String url, int from, int to) {
    int end = to;
    for (int dot = to - 1; dot >= from; dot--) {
      if (url.charAt(dot) == '.') {
        surt.append(url, dot + 1, end).append(',');
        end = dot;
      }
    }
    surt.append(url, from, end);
  }

  /** The path's segments, lower-cased, without empty and {@code .} ones, each {@code ..} removing the one before. */
  private static void appendPath(StringBuilder surt, String url, int from, int to) {
    int pathStart = surt.length();
    int i = from;
    while (i < to) {
      if (url.charAt(i) == '/') {
        i++;
        continue;
      }
      int end = url.indexOf('/', i);
      if (end < 0) end = to;
      int length = end - i;
      if (length == 1 && url.charAt(i) == '.') {
        // dropped
      } else if (length == 2 && url.charAt(i) == '.' && url.charAt(i + 1) == '.') {
        int last = surt.lastIndexOf("/");
        if (last >= pathStart) surt.setLength(last);
      } else {
        surt.append('/');
        for (int k = i; k < end; k++) {
          char c = url.charAt(k);
          surt.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
      }
      i = end;
    }
    if (surt.length() == pathStart) surt.append('/');
  }
}
