package org.forager.bench.web;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Measures a running synthetic web's throughput: N keep-alive connections spread over the hosts,
 * each asking for the next page as soon as the last response has been read, all on one NIO thread
 * so that the client costs little. Not a test; run by hand (docs/benchmarks.md):
 *
 * <pre>
 * java -cp target/test-classes org.forager.bench.web.LoadClient
 *     [--hosts H] [--pages P] [--port PORT] [--connections N] [--warmup-s W] [--seconds S] [--server-pid PID]
 * </pre>
 *
 * <p>Prints pages per second, MB per second and, with {@code --server-pid} (Linux), the server's
 * CPU time over the measured window, so pages per CPU-second of the server can be stated whatever
 * else the machine was doing.
 */
public final class LoadClient {

  private static final class Client {
    final SocketChannel channel;
    final String address;
    final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
    final byte[] head = new byte[1024];
    int headLength;
    long bodyLeft = -1;
    int page;

    Client(SocketChannel channel, String address, int page) {
      this.channel = channel;
      this.address = address;
      this.page = page;
    }
  }

  private long responses;
  private long bytes;

  public static void main(String[] args) throws Exception {
    int hosts = 100;
    int pages = 100;
    int port = 8080;
    int connections = 32;
    double warmup = 3;
    double seconds = 10;
    long pid = -1;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--hosts" -> hosts = Integer.parseInt(args[i + 1]);
        case "--pages" -> pages = Integer.parseInt(args[i + 1]);
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--connections" -> connections = Integer.parseInt(args[i + 1]);
        case "--warmup-s" -> warmup = Double.parseDouble(args[i + 1]);
        case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
        case "--server-pid" -> pid = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option: " + args[i]);
      }
    }
    new LoadClient().run(hosts, pages, port, connections, warmup, seconds, pid);
  }

  private void run(int hosts, int pages, int port, int connections, double warmup, double seconds, long pid)
      throws IOException {
    Selector selector = Selector.open();
    for (int i = 0; i < connections; i++) {
      int host = i % hosts;
      SocketChannel channel = SocketChannel.open(new InetSocketAddress(Hosts.inetAddress(host), port));
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.configureBlocking(false);
      Client c = new Client(channel, Hosts.address(host) + ":" + port, (i * 7) % pages);
      channel.register(selector, SelectionKey.OP_READ, c);
      send(c, pages);
    }
    long start = System.nanoTime();
    long measureFrom = start + (long) (warmup * 1e9);
    long measureTo = measureFrom + (long) (seconds * 1e9);
    boolean measuring = false;
    long cpuAtStart = 0;
    long responsesAtStart = 0;
    long bytesAtStart = 0;
    while (true) {
      selector.select(k -> {
        try {
          read((Client) k.attachment(), pages);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, 100);
      long now = System.nanoTime();
      if (!measuring && now >= measureFrom) {
        measuring = true;
        cpuAtStart = cpuTicks(pid);
        responsesAtStart = responses;
        bytesAtStart = bytes;
        measureTo = now + (long) (seconds * 1e9);
        measureFrom = now;
      } else if (measuring && now >= measureTo) {
        double s = (now - measureFrom) / 1e9;
        long n = responses - responsesAtStart;
        String line = String.format(Locale.ROOT, "LOAD connections=%d seconds=%.1f pages=%d pages_per_s=%.0f MB_per_s=%.1f",
            connections, s, n, n / s, (bytes - bytesAtStart) / s / 1e6);
        if (pid > 0) {
          double cpu = (cpuTicks(pid) - cpuAtStart) / 100.0;
          line += String.format(Locale.ROOT, " server_cpu_s=%.2f server_cpu_share=%.2f pages_per_server_cpu_s=%.0f",
              cpu, cpu / s, n / cpu);
        }
        System.out.println(line);
        return;
      }
    }
  }

  private void send(Client c, int pages) throws IOException {
    c.page = (c.page + 1) % pages;
    String path = c.page == 0 ? "/" : "/p/" + c.page + ".html";
    ByteBuffer request = ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: " + c.address
        + "\r\nUser-Agent: forager-load-client\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    while (request.hasRemaining()) c.channel.write(request);
  }

  /** Reads what is there; a complete response (head, then Content-Length bytes) sends the next request. */
  private void read(Client c, int pages) throws IOException {
    c.in.clear();
    int n = c.channel.read(c.in);
    if (n < 0) throw new IOException("server closed a connection");
    c.in.flip();
    bytes += n;
    while (c.in.hasRemaining()) {
      if (c.bodyLeft < 0) {
        c.head[c.headLength++] = c.in.get();
        int l = c.headLength;
        if (l >= 4 && c.head[l - 1] == '\n' && c.head[l - 2] == '\r' && c.head[l - 3] == '\n' && c.head[l - 4] == '\r') {
          c.bodyLeft = contentLength(new String(c.head, 0, l, StandardCharsets.US_ASCII));
          c.headLength = 0;
        }
      } else {
        int skip = (int) Math.min(c.bodyLeft, c.in.remaining());
        c.in.position(c.in.position() + skip);
        c.bodyLeft -= skip;
      }
      if (c.bodyLeft == 0) {
        c.bodyLeft = -1;
        responses++;
        send(c, pages);
      }
    }
  }

  private static long contentLength(String head) {
    int i = head.toLowerCase(Locale.ROOT).indexOf("content-length:");
    int end = head.indexOf('\r', i);
    return Long.parseLong(head.substring(i + 15, end).trim());
  }

  private static long cpuTicks(long pid) {
    if (pid <= 0) return 0;
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException e) {
      return 0;
    }
  }
}
