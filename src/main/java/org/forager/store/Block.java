package org.forager.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A host an operator blocked while the crawl ran ({@code forager ctl block}): no request of any kind
 * goes to it or to any host under it ({@code example.com} covers {@code www.example.com}) until it is
 * unblocked. Kept in the crawl database across runs ({@link CrawlStore#blocks}).
 *
 * @param host the host or domain in the form normalized URLs carry it (lower case, IDN in ASCII), or
 *     an IP address; at most {@value #MAX_HOST_LENGTH} characters
 * @param since when it was blocked
 * @param by who blocked it: {@code cli}, {@code page} or {@code api}; at most {@value #MAX_BY_LENGTH}
 *     characters
 */
public record Block(String host, Instant since, String by) {

  public static final int MAX_HOST_LENGTH = 255;
  public static final int MAX_BY_LENGTH = 32;

  public Block {
    Objects.requireNonNull(since, "since");
    checkHost(host);
    Objects.requireNonNull(by, "by");
    if (by.length() > MAX_BY_LENGTH || by.indexOf('\0') >= 0) throw new IllegalArgumentException("bad block author");
  }

  /**
   * Returns {@code host} when it can be a block's host: not empty, not too long, no NUL or space.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String checkHost(String host) {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty() || host.length() > MAX_HOST_LENGTH || host.chars().anyMatch(c -> c <= ' ')) {
      throw new IllegalArgumentException("not a host to block: \"" + host + "\"");
    }
    return host;
  }
}
