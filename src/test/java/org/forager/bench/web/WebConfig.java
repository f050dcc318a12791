package org.forager.bench.web;

import java.time.Duration;

/**
 * What a synthetic web serves: {@code hosts} hosts (host i on {@link Hosts#address(int)}), each with
 * {@code pages} pages, all on {@code port}; every response is delayed by {@code latency} from the
 * arrival of its request.
 */
public record WebConfig(int hosts, int pages, int port, Duration latency) {

  public WebConfig {
    if (hosts < 1 || hosts > Hosts.MAX) {
      throw new IllegalArgumentException("hosts must be 1.." + Hosts.MAX + ": " + hosts);
    }
    if (pages < 1) throw new IllegalArgumentException("pages must be at least 1: " + pages);
    if ((long) hosts * pages > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("hosts x pages must fit in an int: " + hosts + " x " + pages);
    }
    if (port < 1 || port > 65535) throw new IllegalArgumentException("port must be 1..65535: " + port);
    if (latency.isNegative()) throw new IllegalArgumentException("latency must not be negative");
  }

  public WebConfig withPort(int newPort) {
    return new WebConfig(hosts, pages, newPort, latency);
  }

  /** {@code http://127.1.x.y:PORT} of a host, without a trailing slash. */
  public String origin(int host) {
    return "http://" + Hosts.address(host) + ":" + port;
  }
}
