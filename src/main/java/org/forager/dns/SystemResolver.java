package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** {@link Resolver#system()}: the JDK's {@link InetAddress#getAllByName}. Stateless. */
final class SystemResolver implements Resolver {

  static final SystemResolver INSTANCE = new SystemResolver();

  private SystemResolver() {}

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    return List.of(InetAddress.getAllByName(host));
  }

  @Override
  public String toString() {
    return "system resolver";
  }
}
