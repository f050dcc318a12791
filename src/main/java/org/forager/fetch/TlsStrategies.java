package org.forager.fetch;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;

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
