package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The host-name rules for names the JDK refuses to check (RFC 6125 section 6.4, RFC 9110 section
 * 4.3.4): dNSName entries, ASCII case-insensitive, a wildcard only as the whole leftmost label.
 */
class CertificateHostNamesTest {

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      // host; certificate's dNSName; matches
      "a_b.example.test; a_b.example.test; true",
      "A_B.Example.TEST; a_b.example.test; true",
      "a_b.example.test; A_B.EXAMPLE.test; true",
      "a_b.example.test.; a_b.example.test; true",
      "a_b.example.test; *.example.test; true",
      "A_B.EXAMPLE.TEST.; *.Example.Test; true",
      "_.example.test; *.example.test; true",
      // A wildcard is one whole label: not two, not none.
      "x.a_b.example.test; *.example.test; false",
      "example.test; *.example.test; false",
      ".example.test; *.example.test; false",
      // Partial-label and non-leftmost wildcards are not supported; nor a wildcard over one label.
      "a_b.example.test; a*.example.test; false",
      "a_b.example.test; *_b.example.test; false",
      "x.a_b.test; x.*.test; false",
      "a_b.test; *.test; false",
      "a_b.test; *.; false",
      // Nor over a registry's public suffix; a private-section one is its owner's.
      "a_b.co.uk; *.co.uk; false",
      "a_b.c.kawasaki.jp; *.c.kawasaki.jp; false",
      "a_b.example.co.uk; *.example.co.uk; true",
      "a_b.github.io; *.github.io; true",
      "a_b.city.kawasaki.jp; *.city.kawasaki.jp; true",
      // A certificate's name with a trailing dot matches nothing.
      "a_b.example.test; a_b.example.test.; false",
      // Other names, and near misses.
      "a_b.example.test; a-b.example.test; false",
      "a_b.example.test; a_b.example.test.evil; false",
      "a_b.example.test; b.example.test; false",
      "a_b.example.test..; a_b.example.test; false",
      // A host is never a pattern.
      "*.example.test; *.example.test; false",
      // Case is folded for ASCII letters only: the Kelvin sign is not K.
      "\u212a_b.example.test; k_b.example.test; false",
  })
  void matches(String host, String pattern, boolean expected) {
    assertEquals(expected, CertificateHostNames.matches(host, pattern), host + " against " + pattern);
  }
}
