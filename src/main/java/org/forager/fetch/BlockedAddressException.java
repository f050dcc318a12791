package org.forager.fetch;

import java.net.UnknownHostException;

/**
 * A connection refused by the {@link NetworkPolicy}: a host name that resolved only to refused
 * addresses, or a socket about to connect to one. A subclass of {@link UnknownHostException}, what
 * a name's resolution throws, told apart from a real DNS failure by its type.
 */
final class BlockedAddressException extends UnknownHostException {

  private static final long serialVersionUID = 1L;

  BlockedAddressException(String message) {
    super(message);
  }
}
