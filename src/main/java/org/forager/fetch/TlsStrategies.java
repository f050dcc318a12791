package org.forager.fetch;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.forager.dns.IpLiterals;

/**
 * How https connections are secured, with the JDK's TLS alone: verified (the default) or, for
 * archive crawls, not. Stateless once made.
 */
final class TlsStrategies {

  /** Secures a connected socket for a host: SNI, the handshake, the certificate's checks. */
  interface TlsStrategy {
    /** The TLS socket over {@code socket} (which it closes when closed), its handshake done. */
    SSLSocket upgrade(Socket socket, String host, int port) throws IOException;
  }

  private TlsStrategies() {}

  /**
   * @param verify true: the certificate chain must lead to a CA the JDK trusts, be valid now, and name
   *     the host (the JDK's endpoint identification for HTTPS, RFC 2818 and RFC 6125: subject
   *     alternative names, wildcards in the leftmost label only; for a name the JDK refuses there, such
   *     as one with {@code _}, the same rules by {@link CertificateHostNames}, after the handshake and
   *     before any request); false: any certificate is accepted for any name, the connection is
   *     encrypted but not authenticated
   */
  static TlsStrategy of(boolean verify) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      // Trust managers from the JDK's defaults, read now (javax.net.ssl.trustStore and friends).
      context.init(null, verify ? null : new TrustManager[] {new TrustEverything()}, null);
      return (socket, host, port) -> handshake(context, verify, socket, host, port);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no TLS", e);
    }
  }

  private static SSLSocket handshake(SSLContext context, boolean verify, Socket socket, String host, int port)
      throws IOException {
    SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(socket, host, port, true);
    try {
      SSLParameters parameters = tls.getSSLParameters();
      // Server Name Indication for a name; an IP literal is sent without (RFC 6066 section 3).
      boolean literal = IpLiterals.isLiteral(host);
      Optional<SNIHostName> name = literal ? Optional.empty() : serverName(host);
      name.ifPresent(n -> parameters.setServerNames(List.of(n)));
      // The JDK's name check refuses a name it refuses as a server name before it reads the
      // certificate; such a name is checked by ours once the trust manager has verified the chain.
      boolean jdkChecksName = literal || name.isPresent();
      if (verify && jdkChecksName) parameters.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(parameters);
      tls.startHandshake();
      if (verify && !jdkChecksName) CertificateHostNames.check(tls.getSession(), host);
      return tls;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * {@link #of}, made at the first https connection: a crawl of http sites never loads the JDK's trust
   * store, which took about 0.2 s of every start before the first request (issue 15). A JDK that
   * cannot set up TLS fails that connection, with the reason.
   */
  static TlsStrategy lazily(boolean verify) {
    return new Lazy(verify);
  }

  private static final class Lazy implements TlsStrategy {
    private final boolean verify;
    private volatile TlsStrategy made;

    Lazy(boolean verify) {
      this.verify = verify;
    }

    @Override
    public SSLSocket upgrade(Socket socket, String host, int port) throws IOException {
      TlsStrategy strategy = made;
      if (strategy == null) {
        // Two first connections at once may each make one: harmless, the last one made is kept.
        try {
          strategy = of(verify);
        } catch (RuntimeException e) {
          throw new SSLException("the JDK cannot set up TLS: " + e.getMessage(), e);
        }
        made = strategy;
      }
      return strategy.upgrade(socket, host, port);
    }
  }

  /**
   * Accepts every server certificate. Extended, so that the JDK does not wrap it in its own
   * endpoint and algorithm checks: "not verified" must mean that for an archive crawl.
   */
  private static final class TrustEverything extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /**
   * The host as Server Name Indication names it, or empty for a name the JDK refuses there: it takes
   * letters, digits and hyphens only, and a host with {@code _} (which browsers and DNS allow) goes
   * without SNI rather than not at all.
   */
  private static Optional<SNIHostName> serverName(String host) {
    try {
      return Optional.of(new SNIHostName(host));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
