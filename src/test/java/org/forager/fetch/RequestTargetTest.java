package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a URL is requested as: scheme, host, port and the request line's path and query. */
class RequestTargetTest {

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      // url; tls; host; port; path and query
      "http://example.org/a/b?c=d; false; example.org; -1; /a/b?c=d",
      "https://example.org:8443/; true; example.org; 8443; /",
      "HTTP://example.org; false; example.org; -1; /",
      "http://example.org?q; false; example.org; -1; /?q",
      "http://example.org:/x; false; example.org; -1; /x",
      "http://alice:s3cr@t@example.org:81/p#f; false; example.org; 81; /p",
      "http://[::1]:8080/x?y; false; [::1]; 8080; /x?y",
      "http://[2001:db8::5]/; false; [2001:db8::5]; -1; /",
      "http://127.0.0.1:9/; false; 127.0.0.1; 9; /",
      // What java.net.URI refused, and the URL Standard keeps as it is (so they were never fetched).
      "http://my_site.example.com/x; false; my_site.example.com; -1; /x",
      "http://example.org/a|b?x=1|2; false; example.org; -1; /a|b?x=1|2",
      "http://example.org/a^b?q={x}`; false; example.org; -1; /a^b?q={x}`",
      "http://example.org/a%zz?%; false; example.org; -1; /a%zz?%",
      "http://example.org/p?a=b#frag|x; false; example.org; -1; /p?a=b",
  })
  void readsTheTarget(String url, boolean tls, String host, int port, String pathAndQuery) {
    assertEquals(Optional.of(new RequestTarget(tls, host, port, pathAndQuery)), RequestTarget.of(url));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "ftp://example.org/file", "mailto:a@example.org", "example.org/a", "http:/example.org/", "http://",
      "http://alice@/", "http://:80/", "http://example.org:0/", "http://example.org:65536/",
      "http://example.org:12345678/", "http://example.org:8x/", "http://[::1/", "http://[::1]x/",
      "http://[fe80::1%25eth0]/", "http://[::g]/", "http://exa mple.org/", "http://example.org/ bad",
      "http://example.org/a\r\nX-Injected: 1", "http://example.org/\u00e9", "http://example.org/\u007f",
      "http://ex<ample.org/", "http://ex|ample.org/",
  })
  void refusesWhatCannotBeRequested(String url) {
    assertEquals(Optional.empty(), RequestTarget.of(url), url);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://Example.ORG/a b/c d?e f#g", "http://example.org/a|b/{c}?d=^|`", "http://Ex_Ample.test:8080/%zz",
      "https://example.org/ü/Ä?ö=ß", "http://xn--bcher-kva.example/", "http://[::FFFF:1.2.3.4]/",
  })
  void everyNormalizedUrlCanBeRequestedAsItIs(String raw) {
    String url = UrlNormalizer.normalize(raw).orElseThrow();
    RequestTarget target = RequestTarget.of(url).orElseThrow(() -> new AssertionError(url));
    String origin = (target.tls() ? "https://" : "http://") + target.hostHeader();
    assertEquals(url.replaceFirst("#.*", ""), origin + target.pathAndQuery());
  }
}
