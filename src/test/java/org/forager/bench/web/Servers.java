package org.forager.bench.web;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts synthetic web servers for tests on a random high port: binding several addresses on one
 * port cannot use port 0, so ports are tried until one is free on every address.
 */
public final class Servers {

  private Servers() {}

  public static SyntheticWebServer start(int hosts, int pages, Duration latency) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      try {
        return SyntheticWebServer.start(new WebConfig(hosts, pages, randomPort(), latency));
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  /** A port that is free on the first {@code hosts} addresses right now. */
  static int freePort(int hosts) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port = randomPort();
      if (free(port, hosts)) return port;
    }
    throw new IOException("no free port found");
  }

  private static boolean free(int port, int hosts) {
    for (int h = 0; h < hosts; h++) {
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(Hosts.inetAddress(h), port));
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private static int randomPort() {
    return ThreadLocalRandom.current().nextInt(20_000, 60_000);
  }
}
