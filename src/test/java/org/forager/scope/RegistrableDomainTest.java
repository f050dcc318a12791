package org.forager.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The registrable domain of the hosts normalized URLs carry, by the embedded public suffix list. */
class RegistrableDomainTest {

  /** The host of {@code url} as the normalizer gives it. */
  static String hostOf(String url) {
    return Origin.ofUrl(UrlNormalizer.normalize(url).orElseThrow()).host();
  }

  @ParameterizedTest
  @CsvSource({
    "example.com, example.com",
    "www.example.com, example.com",
    "a.b.c.example.com, example.com",
    "a.b.example.co.uk, example.co.uk",
    "example.co.uk, example.co.uk",
    "www.bbc.co.uk, bbc.co.uk",
    "group.barclays.com, barclays.com",
    // Wildcard rule *.ck, with the exception !www.ck.
    "a.b.example.ck, b.example.ck",
    "www.ck, www.ck",
  })
  void icannSuffixes(String host, String domain) {
    assertEquals(domain, RegistrableDomain.of(host));
  }

  @Test
  void privateSuffixesMakeEachSubdomainItsOwnDomain() {
    assertEquals("foo.blogspot.com", RegistrableDomain.of("foo.blogspot.com"));
    assertEquals("foo.blogspot.com", RegistrableDomain.of("www.foo.blogspot.com"));
    assertNotEquals(RegistrableDomain.of("foo.blogspot.com"), RegistrableDomain.of("bar.blogspot.com"));
    assertEquals("someone.github.io", RegistrableDomain.of("someone.github.io"));
  }

  @Test
  void aHostThatIsAPublicSuffixIsItsOwnDomain() {
    assertEquals("blogspot.com", RegistrableDomain.of("blogspot.com"));
    assertEquals("co.uk", RegistrableDomain.of("co.uk"));
    assertEquals("com", RegistrableDomain.of("com"));
    assertEquals("github.io", RegistrableDomain.of("github.io"));
  }

  @ParameterizedTest
  @CsvSource({
    "co.uk, true", "CO.UK., true", "com, true", "c.kawasaki.jp, true", "xn--p1ai, true",
    // An exception to a wildcard rule, a private-section suffix, a registered name, unknown or no name.
    "city.kawasaki.jp, false", "github.io, false", "example.co.uk, false", "example.test, false",
    "test, false", "127.0.0.1, false", "'', false",
  })
  void registrySuffixes(String host, boolean suffix) {
    assertEquals(suffix, RegistrableDomain.isRegistrySuffix(host), host);
  }

  @Test
  void namesOfOneLabelAreTheirOwnDomain() {
    assertEquals("localhost", RegistrableDomain.of("localhost"));
    assertEquals("intranet", RegistrableDomain.of("intranet"));
  }

  /** The list's default rule "*": .test, .internal and .lan are not listed, yet www.site.test is site.test. */
  @ParameterizedTest
  @CsvSource({
    "www.site.test, site.test",
    "site.test, site.test",
    "a.b.corp.internal, corp.internal",
    "printer.lan, printer.lan",
    "foo.localhost, foo.localhost",
  })
  void unlistedSuffixesTakeTheDefaultRule(String host, String domain) {
    assertEquals(domain, RegistrableDomain.of(host));
  }

  @ParameterizedTest
  @CsvSource({
    "http://10.0.0.1/, 10.0.0.1",
    "http://127.0.0.1:8080/, 127.0.0.1",
    // The normalizer turns other IPv4 forms into dotted decimal first.
    "http://0x7f.1/, 127.0.0.1",
    "'http://[2001:db8::1]/', '[2001:db8::1]'",
    "'http://[::1]:8080/', '[::1]'",
  })
  void ipHostsAreTheirOwnDomain(String url, String domain) {
    assertEquals(domain, RegistrableDomain.of(hostOf(url)));
  }

  /** A Unicode label under a Unicode TLD (.香港, listed with its own second-level suffixes). */
  @Test
  void idnHostsInAsciiForm() {
    String host = hostOf("http://www.bücher.example.香港/");
    assertEquals("www.xn--bcher-kva.example.xn--j6w193g", host);
    assertEquals("example.xn--j6w193g", RegistrableDomain.of(host));
    assertEquals("xn--bcher-kva.xn--j6w193g", RegistrableDomain.of(hostOf("http://a.bücher.香港/")));
    // 公司.香港 is a listed suffix under .香港, as co.uk is under .uk.
    assertEquals("xn--bcher-kva.xn--55qx5d.xn--j6w193g", RegistrableDomain.of(hostOf("http://www.bücher.公司.香港/")));
    assertEquals("xn--bcher-kva.de", RegistrableDomain.of(hostOf("http://www.Bücher.DE/")));
  }

  @Test
  void aTrailingDotNamesTheSameDomain() {
    String host = hostOf("http://www.example.co.uk./");
    assertEquals("www.example.co.uk", host, "normalized URLs drop it");
    assertEquals("example.co.uk", RegistrableDomain.of(host));
    assertEquals("localhost", RegistrableDomain.of("localhost."));
    assertEquals("10.0.0.1", RegistrableDomain.of("10.0.0.1."));
  }

  @Test
  void upperCaseIsLowered() {
    assertEquals("www.example.com", hostOf("HTTP://WWW.EXAMPLE.COM/"));
    assertEquals("example.co.uk", RegistrableDomain.of("WWW.Example.CO.UK"));
  }

  /** A name whose last label ends in a digit but is not a number is a name, not an address. */
  @Test
  void aLabelEndingInADigitIsNotAnAddress() {
    assertEquals("host.lab1", RegistrableDomain.of(hostOf("http://www.host.lab1/")));
  }

  /** docs/scope.md names the version of the list crawler-commons embeds: bumping the library means updating it. */
  @Test
  void theDocumentedListVersionIsTheEmbeddedOne() throws IOException {
    Pattern version = Pattern.compile("// VERSION: (\\S+)");
    String embedded = null;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(
        RegistrableDomain.class.getResourceAsStream("/effective_tld_names.dat"), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null && embedded == null; line = reader.readLine()) {
        Matcher m = version.matcher(line);
        if (m.matches()) embedded = m.group(1);
      }
    }
    assertTrue(embedded != null, "the list has a VERSION line");
    String docs = Files.readString(Path.of("docs", "scope.md"));
    assertTrue(docs.contains(embedded), "docs/scope.md names the list version " + embedded);
  }
}
