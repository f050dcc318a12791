package org.forager.fetch;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.HttpConnectionFactory;

/**
 * HttpClient's pooling connection manager with two parts of ours: the plain sockets made by a {@link
 * DetachedSocketFactory} (the policy's checked sockets) and the pool ({@link LruConnPool}: leases in
 * constant time). Everything else is the stock manager and operator. Uses HttpClient 5.5's
 * extension points marked internal (the manager's constructor taking a pool, {@link
 * DefaultHttpClientConnectionOperator}): an upgrade that removes them fails the build, and {@code
 * HttpFetcherPolicyTest} fails if the sockets stop being ours.
 */
final class PolicyConnectionManager extends PoolingHttpClientConnectionManager {

  /**
   * @param connections makes the manager's connections; null: HttpClient's default
   * @param maxTotal the most connections open at once, idle ones included
   */
  PolicyConnectionManager(DetachedSocketFactory sockets, DnsResolver resolver, TlsSocketStrategy tls,
      HttpConnectionFactory<ManagedHttpClientConnection> connections, int maxPerRoute, int maxTotal) {
    super(new DefaultHttpClientConnectionOperator(sockets, null, resolver,
            RegistryBuilder.<TlsSocketStrategy>create().register(URIScheme.HTTPS.id, tls).build()),
        new LruConnPool<HttpRoute, ManagedHttpClientConnection>(maxPerRoute, maxTotal, null), connections);
  }
}
