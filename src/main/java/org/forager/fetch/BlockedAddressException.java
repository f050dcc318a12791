package org.forager.fetch;

import java.net.UnknownHostException;

/**
 * A host name resolved only to addresses the {@link NetworkPolicy} refuses. A subclass of
 * {@link UnknownHostException} because that is what a {@code DnsResolver} may throw; it travels
 * through the HTTP client unchanged and is told apart from a real DNS failure by its type.
 */
final class BlockedAddressException extends UnknownHostException {

  private static final long serialVersionUID = 1L;

  BlockedAddressException(String host) {
    super(host + " resolves only to addresses refused by the network policy");
  }
}
