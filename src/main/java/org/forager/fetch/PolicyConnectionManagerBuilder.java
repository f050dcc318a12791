package org.forager.fetch;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SchemePortResolver;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.RegistryBuilder;

/**
 * HttpClient's pool builder, with the plain sockets made by a {@link DetachedSocketFactory} of ours
 * (the builder has no setter for it). Everything else is the stock builder and operator. Uses
 * HttpClient 5.5's extension points marked internal ({@code createConnectionOperator},
 * {@link DefaultHttpClientConnectionOperator}); {@code HttpFetcherPolicyTest} fails if an upgrade
 * stops them being used.
 */
final class PolicyConnectionManagerBuilder extends PoolingHttpClientConnectionManagerBuilder {

  private final DetachedSocketFactory sockets;

  private PolicyConnectionManagerBuilder(DetachedSocketFactory sockets) {
    this.sockets = sockets;
  }

  static PolicyConnectionManagerBuilder create(DetachedSocketFactory sockets) {
    return new PolicyConnectionManagerBuilder(sockets);
  }

  @Override
  protected HttpClientConnectionOperator createConnectionOperator(SchemePortResolver schemePortResolver,
      DnsResolver dnsResolver, TlsSocketStrategy tlsSocketStrategy) {
    return new DefaultHttpClientConnectionOperator(sockets, schemePortResolver, dnsResolver,
        RegistryBuilder.<TlsSocketStrategy>create().register(URIScheme.HTTPS.id, tlsSocketStrategy).build());
  }
}
