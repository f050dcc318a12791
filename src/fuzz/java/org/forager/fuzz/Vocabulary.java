package org.forager.fuzz;

import java.util.List;

/** Tokens of the formats the fuzz targets read: URLs, HTML, robots.txt and HTTP header values. */
final class Vocabulary {

  private Vocabulary() {}

  /** Pieces of URLs, with the characters and escapes the WHATWG parser treats specially. */
  static final List<String> URL = List.of(
      "http", "https", "HTTP", "hTTpS", "ftp", "javascript", "mailto", "data", ":", "//", "/", "\\", "///",
      "?", "#", "@", ":@", "user:pass@", "[", "]", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1%25eth0]",
      ":", "::", ":80", ":443", ":8080", ":0", ":65535", ":65536", ":99999999999", ":-1", ":+1",
      "example.org", "EXAMPLE.ORG", "a", "b", "xn--", "xn--a", "xn--nxasmq6b", "xn--bcher-kva", "-",
      "127.0.0.1", "0x7f.1", "0x7F000001", "017700000001", "4294967295", "4294967296", "1.2.3", "1.2.3.4.",
      "999.1.1.1", ".", "..", "%2e", "%2E", ".%2e", "%2e%2E", "%", "%2", "%zz", "%41", "%7e", "%7E", "%25",
      "%2525", "%00", "%C3%9F", "%E2%82%AC", "%ff", "%F0%9F%98%80", "%ef%bc%8e", "&", "=", "a=b", "&&", ";",
      "+", "~", "_", "'", "\"", "<", ">", "^", "`", "{", "}", "|", " ", "\t", "\n", "\r", "\u0000", "\u001f",
      "\u007f", "\u00a0", "\u00ad", "ß", "ς", "é", "ü", "bücher", "例え", "テスト", "\u3002", "\uff0e", "\uff61",
      "ＡＢＣ", "\u200c", "\u200d", "\ufeff", "\ufffd", "\ud83d\ude00", "\ud800", "\udc00", "\u0130",
      "\u212a", "\u0661", "\u05d0", "index.html", "a/b/../c", "./", "../", "?#", "#?", "?a=1&b=2", "#frag");

  /** Tags, attributes, entities and content that the extractor looks at or that stress a parser. */
  static final List<String> HTML = List.of(
      "<a href=", "<A HREF=", "<a rel=nofollow href=", "<a rel=\"noopener nofollow\" href=", "<area href=",
      "<frame src=", "<iframe src=", "<base href=", "<link rel=canonical href=", "<link rel=\"CANONICAL\" href=",
      "<meta name=robots content=", "<meta name=ForagerBot content=", "<meta name=googlebot content=",
      "<meta charset=", "<meta http-equiv=Content-Type content=\"text/html; charset=", "\"", "'", "=", ">",
      "/>", "<", "</", "</a>", " ", "\n", "\t", "\r\n", "<html>", "<head>", "</head>", "<body>", "</body>",
      "<!--", "-->", "--!>", "<!DOCTYPE html>", "<?xml version=\"1.0\"?>", "<![CDATA[", "]]>", "<script>",
      "</script>", "<style>", "</style>", "<textarea>", "<title>", "<noscript>", "<template>", "</template>",
      "<svg>", "<math>", "<table>", "<tr>", "<td>", "<select>", "<option>", "<plaintext>", "<xmp>", "<div>",
      "<p>", "<frameset>", "<object data=", "<img src=", "&amp;", "&lt;", "&#", "&#x", "&#0;", "&#x110000;",
      "&#xD800;", "&nbsp", "&", ";", "noindex", "nofollow", "none", "noindex,nofollow", "NOFOLLOW", "all",
      "foragerbot: nofollow", "utf-8", "utf-16", "utf-16be", "iso-8859-1", "windows-1252", "shift_jis",
      "euc-jp", "iso-2022-jp", "gb18030", "x-user-defined", "bogus", "replacement", "\u0000", "\ufeff",
      "\ufffd", "é", "例", "\ud83d\ude00", "\ud800", "http://example.org/", "https://other.example/x?y#z",
      "//cdn.example/", "/root", "../up", "?q=1", "#top", "javascript:alert(1)", "mailto:a@b", "data:,x",
      "http://[::1]/", "http://user:pass@host/", "http://0x7f.1/", "http://xn--/", "http://%zz/",
      "http://a b/", "\\\\evil.example\\x", " https://example.org/ws ");

  /** Lines and fields of robots.txt (RFC 9309) and the extensions crawlers accept. */
  static final List<String> ROBOTS = List.of(
      "User-agent:", "user-agent :", "USER-AGENT:", "useragent:", "User agent:", "Disallow:", "disallow :",
      "Allow:", "Crawl-delay:", "crawl-delay:", "Sitemap:", "Host:", "Clean-param:", "Noindex:", "Request-rate:",
      " ", "\t", "\n", "\r\n", "\r", "#", ":", "*", "$", "/", "/*", "/$", "*$", "/a", "/a/", "/a*b$",
      "/robots.txt", "/?", "?q=1", "%2F", "%2f", "%", "%zz", "%E2%82%AC", "€", "例", "ForagerBot",
      "foragerbot", "ForagerBot/1.0", "Forager", "forager-bot", "Googlebot", "0", "1", "5", "0.5", "-1",
      "1e9", "1e400", "NaN", "Infinity", "99999999999999999999", "  10  ", "1,5",
      "http://example.org/sitemap.xml", "https://other.example/s.xml", "sitemap.xml", "\ufeff", "\u0000",
      "\ufffd", "<html>", "<pre>", "User-agent: *\n", "User-agent: ForagerBot\n", "Disallow: /\n",
      "Allow: /\n", "Crawl-delay: 2\n");

  /** Content-Type values, with and without usable charsets. */
  static final List<String> CONTENT_TYPE = List.of(
      "text/html", "text/html; charset=utf-8", "text/html;charset=UTF-16", "text/html; charset=utf-16le",
      "text/html; charset=\"windows-1252\"", "text/html; charset='shift_jis'", "text/html; charset=iso-2022-jp",
      "text/html; charset=gb18030", "text/html; charset=x-unknown", "text/html; charset=", "text/html; charset",
      "application/xhtml+xml", "text/plain; charset=utf-32", "text/html; charset=utf-7", ";;;", "charset=\"",
      "text/html; charset=\u00e9");

  /** Link header (RFC 8288) pieces. */
  static final List<String> LINK_HEADER = List.of(
      "<", ">", ";", ",", " ", "rel=canonical", "rel=\"canonical\"", "rel='canonical'", "rel=\"next canonical\"",
      "rel=CANONICAL", "rel=", "title=\"a,b;c\"", "\"", "https://example.org/c", "/c", "../c", "//cdn.example/c",
      "mailto:x@y", "http://%zz/", "\\");

  /** X-Robots-Tag pieces. */
  static final List<String> X_ROBOTS_TAG = List.of(
      "noindex", "nofollow", "none", "all", "NOINDEX", "ForagerBot:", "foragerbot :", "googlebot:", ",", ", ",
      " ", ":", "unavailable_after: 25 Jun 2010 15:00:00 PST", "max-snippet:-1");
}
