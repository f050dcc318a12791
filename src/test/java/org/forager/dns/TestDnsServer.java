package org.forager.dns;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * A tiny DNS server on 127.0.0.1 (UDP, a port of its own) answering as a recursive resolver would,
 * from records the test gives: A and AAAA with chosen TTLs, CNAME chains (followed in one answer),
 * NXDOMAIN for unknown names, NODATA (with an SOA) for known names without the type asked, SERVFAIL,
 * and silence for names that must hang. Counts the questions per name. Thread-safe.
 */
final class TestDnsServer implements AutoCloseable {

  private static final Name ZONE = name("test.");

  private final DatagramSocket socket;
  private final Thread loop;
  private final Map<Name, List<Record>> records = new ConcurrentHashMap<>();
  private final Set<Name> failing = ConcurrentHashMap.newKeySet();
  private final Set<Name> silentNames = ConcurrentHashMap.newKeySet();
  private volatile boolean silentForAll;
  private final Map<Name, AtomicInteger> asked = new ConcurrentHashMap<>();
  private final AtomicInteger questions = new AtomicInteger();

  private TestDnsServer() throws SocketException {
    socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    loop = Thread.ofPlatform().daemon().name("test-dns-" + socket.getLocalPort()).start(this::serve);
  }

  static TestDnsServer start() throws SocketException {
    return new TestDnsServer();
  }

  InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  /** {@code name} has these IPv4 addresses, kept {@code ttl} seconds. */
  TestDnsServer a(String name, long ttl, String... addresses) {
    for (String address : addresses) add(new ARecord(name(name), DClass.IN, ttl, ip(address)));
    return this;
  }

  /** {@code name} has these IPv6 addresses, kept {@code ttl} seconds. */
  TestDnsServer aaaa(String name, long ttl, String... addresses) {
    for (String address : addresses) add(new AAAARecord(name(name), DClass.IN, ttl, ip(address)));
    return this;
  }

  /** {@code name} is an alias of {@code target}. */
  TestDnsServer cname(String name, long ttl, String target) {
    add(new CNAMERecord(name(name), DClass.IN, ttl, name(target)));
    return this;
  }

  /** {@code name} exists, with no record of its own unless others are given (NODATA for A and AAAA). */
  TestDnsServer exists(String name) {
    records.computeIfAbsent(name(name), n -> new CopyOnWriteArrayList<>());
    return this;
  }

  /** Questions about {@code name} get SERVFAIL. */
  TestDnsServer servfail(String name) {
    failing.add(name(name));
    return this;
  }

  /** Questions about {@code name} are never answered. */
  TestDnsServer silent(String name) {
    silentNames.add(name(name));
    return this;
  }

  /** No question is ever answered (a name server that is down but whose port is open). */
  TestDnsServer silentForAll() {
    silentForAll = true;
    return this;
  }

  /** Answers again after {@link #silentForAll} (the name server is back). */
  TestDnsServer answering() {
    silentForAll = false;
    return this;
  }

  /** Questions received about {@code name}, of any type. */
  int asked(String name) {
    AtomicInteger count = asked.get(name(name));
    return count == null ? 0 : count.get();
  }

  /** Questions received in all. */
  int questions() {
    return questions.get();
  }

  private void add(Record record) {
    records.computeIfAbsent(record.getName(), n -> new CopyOnWriteArrayList<>()).add(record);
  }

  private void serve() {
    byte[] buffer = new byte[4096];
    while (!socket.isClosed()) {
      DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
      try {
        socket.receive(packet);
        Message query = new Message(Arrays.copyOf(packet.getData(), packet.getLength()));
        byte[] reply = answer(query);
        if (reply != null) socket.send(new DatagramPacket(reply, reply.length, packet.getSocketAddress()));
      } catch (IOException e) {
        if (socket.isClosed()) return; // closed by the test
      }
    }
  }

  /** The reply to {@code query}, or null to stay silent. */
  private byte[] answer(Message query) {
    Record question = query.getQuestion();
    questions.incrementAndGet();
    asked.computeIfAbsent(question.getName(), n -> new AtomicInteger()).incrementAndGet();
    if (silentForAll || silentNames.contains(question.getName())) return null;
    Message reply = new Message(query.getHeader().getID());
    reply.getHeader().setFlag(Flags.QR);
    reply.getHeader().setFlag(Flags.RD);
    reply.getHeader().setFlag(Flags.RA);
    reply.addRecord(question, Section.QUESTION);
    if (failing.contains(question.getName())) {
      reply.getHeader().setRcode(Rcode.SERVFAIL);
      return reply.toWire();
    }
    Name current = question.getName();
    for (int hops = 0; hops < 10; hops++) {
      List<Record> known = records.get(current);
      if (known == null) {
        if (hops == 0) reply.getHeader().setRcode(Rcode.NXDOMAIN);
        break;
      }
      Record alias = known.stream().filter(r -> r.getType() == Type.CNAME).findFirst().orElse(null);
      if (alias == null) {
        known.stream().filter(r -> r.getType() == question.getType()).forEach(r -> reply.addRecord(r, Section.ANSWER));
        break;
      }
      reply.addRecord(alias, Section.ANSWER);
      current = ((CNAMERecord) alias).getTarget();
    }
    if (reply.getSection(Section.ANSWER).stream().noneMatch(r -> r.getType() == question.getType())) {
      // RFC 2308: a negative answer carries the zone's SOA, whose minimum bounds its caching.
      reply.addRecord(new SOARecord(ZONE, DClass.IN, 60, name("ns.test."), name("admin.test."), 1, 3600, 600,
          86400, 60), Section.AUTHORITY);
    }
    return reply.toWire();
  }

  @Override
  public void close() {
    socket.close();
    try {
      loop.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Name name(String text) {
    try {
      return Name.fromString(text, Name.root);
    } catch (TextParseException e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  private static InetAddress ip(String literal) {
    return IpLiterals.parse(literal).orElseThrow(() -> new IllegalArgumentException(literal));
  }
}
