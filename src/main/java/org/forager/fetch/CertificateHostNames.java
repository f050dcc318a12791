package org.forager.fetch;

import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.forager.scope.RegistrableDomain;

/**
 * Whether a server certificate names a host, for the hosts the JDK's own check refuses before it
 * looks at the certificate: a name with {@code _}, which DNS and browsers allow and the JDK's
 * {@link javax.net.ssl.SNIHostName} does not. The rules of RFC 6125 section 6.4 as RFC 9110 section
 * 4.3.4 applies them and browsers do: the certificate's subjectAltName dNSName entries only (never its
 * common name), compared case-insensitively in ASCII, a wildcard only as the whole leftmost label and
 * matching exactly one label, never over a single-label domain ({@code *.test}) nor over a registry's
 * public suffix ({@code *.co.uk}, which browsers refuse too); a trailing dot on the host is ignored,
 * one on a certificate's name (which RFC 5280 names never carry) matches nothing. Stateless.
 */
final class CertificateHostNames {

  private static final int DNS_NAME = 2; // GeneralName's dNSName, RFC 5280 section 4.2.1.6

  private CertificateHostNames() {}

  /**
   * Throws unless the session's leaf certificate names {@code host}; the exception is the one a
   * certificate for another host is classified by (a host name mismatch).
   */
  static void check(SSLSession session, String host) throws SSLPeerUnverifiedException {
    Certificate[] chain = session.getPeerCertificates();
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      throw new SSLPeerUnverifiedException("No X.509 certificate to match " + host + " against");
    }
    List<String> names = dnsNames(leaf);
    if (names.isEmpty()) {
      throw new SSLPeerUnverifiedException("No subject alternative DNS names to match " + host + " against");
    }
    if (names.stream().noneMatch(name -> matches(host, name))) {
      throw new SSLPeerUnverifiedException("No subject alternative DNS name matching " + host + " found");
    }
  }

  /** The certificate's subjectAltName dNSName entries, in order; none when it has none or they do not parse. */
  static List<String> dnsNames(X509Certificate certificate) {
    Collection<List<?>> alternatives;
    try {
      alternatives = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return List.of(); // an extension that does not parse names nothing
    }
    List<String> names = new ArrayList<>();
    if (alternatives == null) return names;
    for (List<?> entry : alternatives) {
      if (entry.size() == 2 && entry.get(0) instanceof Integer type && type == DNS_NAME
          && entry.get(1) instanceof String name) {
        names.add(name);
      }
    }
    return names;
  }

  /** Whether the dNSName {@code pattern} (a name, or {@code *.} and a name) matches {@code host}. */
  static boolean matches(String host, String pattern) {
    String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    // A host is never a pattern itself: "*.example.test" as a host matches nothing.
    if (name.isEmpty() || name.indexOf('*') >= 0 || pattern.isEmpty()) return false;
    if (!pattern.startsWith("*.")) return equalsAscii(name, pattern);
    String suffix = pattern.substring(2);
    // The wildcard covers one whole label of a name of at least three: not "*.test", nor "*x.test".
    if (suffix.indexOf('*') >= 0 || suffix.indexOf('.') <= 0 || suffix.endsWith(".")) return false;
    if (RegistrableDomain.isRegistrySuffix(suffix)) return false;
    int firstDot = name.indexOf('.');
    return firstDot > 0 && equalsAscii(name.substring(firstDot + 1), suffix);
  }

  /** Equality ignoring the case of ASCII letters only (no locale, no Unicode folding: {@code K} is not the Kelvin sign). */
  private static boolean equalsAscii(String a, String b) {
    if (a.length() != b.length()) return false;
    for (int i = 0; i < a.length(); i++) {
      if (lower(a.charAt(i)) != lower(b.charAt(i))) return false;
    }
    return true;
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }
}
