package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * DNS answers for tests, nothing leaving the machine: each name given an address in 192.0.2.0/24
 * (TEST-NET-1) unless it is made to fail or to hang until {@link #release}. Counts the questions per
 * name. Thread-safe.
 */
final class FakeDns implements Resolver {

  private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
  private final Map<String, String> failures = new ConcurrentHashMap<>();
  private final Map<String, Boolean> hanging = new ConcurrentHashMap<>();
  private final CountDownLatch released = new CountDownLatch(1);
  private final AtomicInteger next = new AtomicInteger(1);

  /** {@code name} fails with an {@link UnknownHostException} saying {@code message}. */
  FakeDns failing(String name, String message) {
    failures.put(name, message);
    return this;
  }

  /** Asking for {@code name} blocks until {@link #release} (as a resolver that never answers would). */
  FakeDns hanging(String name) {
    hanging.put(name, true);
    return this;
  }

  /** Lets every hanging question answer. */
  void release() {
    released.countDown();
  }

  int asked(String name) {
    AtomicInteger count = asked.get(name);
    return count == null ? 0 : count.get();
  }

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    asked.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
    if (hanging.containsKey(host)) {
      try {
        released.await();
      } catch (InterruptedException e) {
        // A real resolver ignores interrupts; going on waiting would only keep the test's thread.
        Thread.currentThread().interrupt();
      }
    }
    String failure = failures.get(host);
    if (failure != null) throw new UnknownHostException(failure);
    return List.of(InetAddress.getByAddress(host, new byte[] {(byte) 192, 0, 2, (byte) next.getAndIncrement()}));
  }
}
