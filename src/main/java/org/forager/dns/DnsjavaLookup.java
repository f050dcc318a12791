package org.forager.dns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ExtendedResolver;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.ResolverConfig;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import org.xbill.DNS.hosts.HostsFileParser;
import org.xbill.DNS.lookup.LookupResult;
import org.xbill.DNS.lookup.LookupSession;
import org.xbill.DNS.lookup.NoSuchDomainException;
import org.xbill.DNS.lookup.NoSuchRRSetException;
import org.xbill.DNS.lookup.ServerFailedException;

/**
 * An {@link AddressLookup} that asks name servers itself (dnsjava), so that it learns the records'
 * TTLs and holds no thread while it waits. Thread-safe.
 *
 * <ul>
 *   <li>The hosts file first, as {@code getaddrinfo} does with nsswitch's usual {@code files dns}: a
 *       name it lists ({@code localhost}) is answered from it alone, without a TTL.
 *   <li>Then A and AAAA queries at once, CNAME chains followed; the IPv4 addresses first (as the
 *       JDK orders them by default), then the IPv6 ones. The answer's TTL is the least of its
 *       address records'. One family failing is no failure while the other has addresses.
 *   <li>The name servers given, or the system's ({@code /etc/resolv.conf}: servers, search list,
 *       ndots). Each query is sent to them in turn, each attempt waiting a share of {@code
 *       deadline}, so that a second server is asked when the first does not answer.
 * </ul>
 */
final class DnsjavaLookup implements AddressLookup {

  /** Attempts per server within one lookup's deadline (a lost UDP datagram is retried once). */
  private static final int ATTEMPTS_PER_SERVER = 2;
  /** Parsing answers on a virtual thread each: never queued behind other work, never a pool to size. */
  private static final Executor ON_VIRTUAL_THREADS = Thread::startVirtualThread;

  private final LookupSession session;
  private final HostsFileParser hosts;
  private final String description;

  /**
   * @param servers the name servers to ask, in order; empty for the system's
   * @param hostsFile the hosts file read before DNS ({@code /etc/hosts})
   * @param deadline the time one lookup may take, shared among the attempts
   */
  DnsjavaLookup(List<InetSocketAddress> servers, Path hostsFile, Duration deadline) {
    ResolverConfig system = ResolverConfig.getCurrentConfig();
    List<InetSocketAddress> asked = servers.isEmpty() ? system.servers() : servers;
    Duration attempt = deadline.dividedBy((long) ATTEMPTS_PER_SERVER * asked.size());
    List<org.xbill.DNS.Resolver> each = new ArrayList<>();
    for (InetSocketAddress server : asked) {
      SimpleResolver resolver = new SimpleResolver(server);
      resolver.setTimeout(attempt);
      each.add(resolver);
    }
    ExtendedResolver resolver = new ExtendedResolver(each);
    resolver.setRetries(ATTEMPTS_PER_SERVER);
    resolver.setTimeout(deadline);
    LookupSession.LookupSessionBuilder session = LookupSession.builder()
        .resolver(resolver)
        .executor(ON_VIRTUAL_THREADS)
        .clearCaches(); // the CachingResolver in front caches, with its own bounds
    if (servers.isEmpty()) session.searchPath(system.searchPath()).ndots(system.ndots());
    this.session = session.build();
    this.hosts = new HostsFileParser(hostsFile);
    this.description = "DNS resolver asking " + asked + " (after " + hostsFile + ")";
  }

  @Override
  public CompletableFuture<Found> lookup(String host) {
    Name name;
    Name absolute;
    try {
      // Relative unless it ends in a dot, so that the search list applies as getaddrinfo applies it.
      name = Name.fromString(host);
      absolute = Name.fromString(host, Name.root);
    } catch (TextParseException e) {
      return CompletableFuture.failedFuture(new UnknownHostException(host + ": not a DNS name"));
    }
    Optional<Found> listed = fromHostsFile(absolute);
    if (listed.isPresent()) return CompletableFuture.completedFuture(listed.get());
    CompletableFuture<Family> v4 = family(name, Type.A);
    CompletableFuture<Family> v6 = family(name, Type.AAAA);
    return v4.thenCombine(v6, (a, aaaa) -> combine(host, a, aaaa));
  }

  private Optional<Found> fromHostsFile(Name name) {
    List<InetAddress> addresses = new ArrayList<>(2);
    // dnsjava's parser is not safe for concurrent use: its cache is built lazily without a lock, and
    // lookups racing its first use threw NullPointerException (one in 200 concurrent lookups,
    // DnsjavaResolverTest.hangingLookupsHoldNoThread). A lookup of its cached map is quick.
    try {
      synchronized (hosts) {
        hosts.getAddressForHost(name, Type.A).ifPresent(addresses::add);
        hosts.getAddressForHost(name, Type.AAAA).ifPresent(addresses::add);
      }
    } catch (IOException e) {
      // An unreadable hosts file is no hosts file, as for getaddrinfo.
      return Optional.empty();
    }
    return addresses.isEmpty() ? Optional.empty() : Optional.of(new Found(addresses, Optional.empty()));
  }

  /** The records of one type, or why there are none: never completes exceptionally. */
  private CompletableFuture<Family> family(Name name, int type) {
    return session.lookupAsync(name, type).toCompletableFuture()
        .handle((result, failure) -> failure == null ? Family.of(result) : Family.failed(unwrap(failure)));
  }

  /**
   * What one query type gave: its addresses and their least TTL, or (no addresses) why there are
   * none, {@code failure} empty meaning the name exists without such records.
   */
  private record Family(List<InetAddress> addresses, long ttlSeconds, Optional<Throwable> failure) {

    static Family of(LookupResult result) {
      List<InetAddress> addresses = new ArrayList<>();
      long ttl = Long.MAX_VALUE;
      for (Record r : result.getRecords()) {
        if (r instanceof ARecord a) {
          addresses.add(a.getAddress());
        } else if (r instanceof AAAARecord aaaa) {
          addresses.add(aaaa.getAddress());
        } else {
          continue;
        }
        ttl = Math.min(ttl, r.getTTL());
      }
      return new Family(addresses, ttl, Optional.empty());
    }

    static Family failed(Throwable failure) {
      return new Family(List.of(), Long.MAX_VALUE,
          failure instanceof NoSuchRRSetException ? Optional.empty() : Optional.of(failure));
    }

    /** Whether this says something about the name rather than about the servers. */
    boolean isAnswer() {
      return failure.isEmpty() || failure.get() instanceof NoSuchDomainException;
    }
  }

  private static Found combine(String host, Family a, Family aaaa) {
    List<InetAddress> addresses = new ArrayList<>(a.addresses());
    addresses.addAll(aaaa.addresses());
    if (addresses.isEmpty()) {
      // A server that failed or did not answer says nothing about the name: that reason wins.
      throw new CompletionException(failure(host, a.isAnswer() ? aaaa : a));
    }
    return new Found(addresses, Optional.of(Duration.ofSeconds(Math.min(a.ttlSeconds(), aaaa.ttlSeconds()))));
  }

  private static UnknownHostException failure(String host, Family family) {
    if (family.failure().isEmpty()) return new NoSuchHostException(host + ": no address (no A or AAAA record)");
    Throwable failure = family.failure().get();
    if (failure instanceof NoSuchDomainException) return new NoSuchHostException(host + ": no such domain (NXDOMAIN)");
    return new UnknownHostException(host + switch (failure) {
      case ServerFailedException e -> ": DNS server failure (SERVFAIL)";
      case IOException e -> ": no answer from the name servers (" + e.getMessage() + ")";
      default -> ": DNS lookup failed (" + failure + ")";
    });
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
    return t;
  }

  @Override
  public String toString() {
    return description;
  }
}
