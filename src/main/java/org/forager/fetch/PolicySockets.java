package org.forager.fetch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * Makes the plain sockets every connection starts from. They never go through a proxy (system
 * properties such as {@code socksProxyHost} are ignored: the address checked must be the address
 * connected to). When the policy is enforced, a socket refuses in {@code connect} any peer the
 * {@link NetworkPolicy} refuses, by throwing {@link BlockedAddressException}: this checks the address
 * actually connected to, before a single byte is sent, whatever the resolver let through. Stateless.
 */
final class PolicySockets {

  private final boolean enforcePolicy;

  PolicySockets(boolean enforcePolicy) {
    this.enforcePolicy = enforcePolicy;
  }

  /** A new unconnected socket, direct. */
  Socket create() {
    return enforcePolicy ? new CheckedSocket() : new Socket(Proxy.NO_PROXY);
  }

  /** A direct socket that connects only to addresses the policy allows. */
  static final class CheckedSocket extends Socket {

    CheckedSocket() {
      super(Proxy.NO_PROXY);
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
      if (!(endpoint instanceof InetSocketAddress inet) || inet.getAddress() == null) {
        throw new BlockedAddressException("not connecting to an unresolved address: " + endpoint);
      }
      if (NetworkPolicy.isBlocked(inet.getAddress())) {
        throw new BlockedAddressException(
            "not connecting to " + inet.getAddress().getHostAddress() + ": refused by the network policy");
      }
      super.connect(endpoint, timeout);
    }
  }
}
