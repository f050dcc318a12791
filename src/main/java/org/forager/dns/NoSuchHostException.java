package org.forager.dns;

import java.net.UnknownHostException;

/**
 * The name servers answered that the host name does not exist (NXDOMAIN) or has no address (no A or
 * AAAA record): an answer about the name, unlike a server that failed or did not answer. A crawl has
 * nothing to fetch from such a host until the name comes into being, so it is not retried in the run.
 */
public final class NoSuchHostException extends UnknownHostException {

  private static final long serialVersionUID = 1L;

  public NoSuchHostException(String message) {
    super(message);
  }
}
