package org.forager.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Opens {@link HttpFetcher}'s connections: the route's pinned address, or the addresses the
 * {@link PolicyDnsResolver} answers (asked once per connection, so no earlier answer is trusted: DNS
 * rebinding), tried in order until one connects; each through a {@link PolicySockets} socket, which
 * checks the address it connects to, never through a proxy; TCP_NODELAY on; for https, secured by
 * the {@link TlsStrategies} strategy (SNI, the certificate checked unless told not to). Thread-safe.
 */
final class Connector {

  private final PolicyDnsResolver dns;
  private final PolicySockets sockets;
  private final TlsStrategies.TlsStrategy tls;

  Connector(PolicyDnsResolver dns, PolicySockets sockets, TlsStrategies.TlsStrategy tls) {
    this.dns = dns;
    this.sockets = sockets;
    this.tls = tls;
  }

  /**
   * A connection of the route, within {@code deadlineNanos}; every socket made is first handed to
   * {@code made}, so that the fetch's deadline can close it while it connects.
   */
  Connection connect(Route route, long deadlineNanos, Consumer<Socket> made) throws IOException {
    InetAddress[] addresses = route.pinned().isPresent()
        ? new InetAddress[] {route.pinned().get()}
        : dns.resolve(route.name());
    IOException failure = null;
    for (InetAddress address : addresses) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (left <= 0) throw new java.net.SocketTimeoutException("connect timed out");
      Socket socket = sockets.create();
      made.accept(socket);
      try {
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(address, route.port()), (int) Math.min(Integer.MAX_VALUE, left));
        Socket secured = route.tls()
            ? tls.upgrade(socket, route.name(), route.port())
            : socket;
        // The deadline closes the plain socket under TLS: closing the TLS one would first send a
        // close_notify, which a server that stopped reading can block.
        return new Connection(route, secured, socket);
      } catch (BlockedAddressException | RuntimeException e) {
        socket.close();
        throw e;
      } catch (IOException e) {
        socket.close();
        if (failure != null) e.addSuppressed(failure); // the last address's failure is the one told
        failure = e;
        if (route.tls() && socket.isConnected()) throw e; // a handshake failure: the next address is the same server
      }
    }
    throw failure != null ? failure : new java.net.UnknownHostException(route.name() + ": no address");
  }
}
