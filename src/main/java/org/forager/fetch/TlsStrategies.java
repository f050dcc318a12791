package org.forager.fetch;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/** How https connections are secured: verified (the default) or, for archive crawls, not. Stateless. */
final class TlsStrategies {

  private TlsStrategies() {}

  /**
   * @param verify true: the certificate chain must lead to a CA the JDK trusts, be valid now, and name
   *     the host (checked by the JDK's endpoint identification and again by HttpClient's verifier, RFC
   *     6125); false: any certificate is accepted for any name, the connection is encrypted but not
   *     authenticated
   */
  static TlsSocketStrategy of(boolean verify) {
    return verify ? DefaultClientTlsStrategy.createDefault() : insecure();
  }

  /**
   * {@link #of}, made at the first https connection: a crawl of http sites never loads the JDK's trust
   * store, which took about 0.2 s of every start before the first request (issue 15). A JDK that
   * cannot set up TLS fails that connection, with the reason.
   */
  static TlsSocketStrategy lazily(boolean verify) {
    return new Lazy(verify);
  }

  private static final class Lazy implements TlsSocketStrategy {
    private final boolean verify;
    private volatile TlsSocketStrategy made;

    Lazy(boolean verify) {
      this.verify = verify;
    }

    @Override
    public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
        throws IOException {
      TlsSocketStrategy strategy = made;
      if (strategy == null) {
        // Two first connections at once may each make one: harmless, the last one made is kept.
        try {
          strategy = of(verify);
        } catch (RuntimeException e) {
          throw new SSLException("the JDK cannot set up TLS: " + e.getMessage(), e);
        }
        made = strategy;
      }
      return strategy.upgrade(socket, target, port, attachment, context);
    }
  }

  private static TlsSocketStrategy insecure() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustEverything()}, null);
      return new DefaultClientTlsStrategy(context, HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no TLS", e);
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
}
