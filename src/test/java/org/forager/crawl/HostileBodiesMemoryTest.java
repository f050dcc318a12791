package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.ChildCrawl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile servers on many addresses, each sending a page of {@code limits.max_page_bytes} and then
 * holding the connection, filled the heap together (256 origins at 2 MiB against 256 MiB: out of memory,
 * the attacker review); with the bodies' memory bounded ({@code fetch.BodyMemory}) the crawl waits for
 * it and ends normally. A child JVM with a 96 MiB heap and 48 such origins (96 MiB of bodies).
 */
@Timeout(180)
class HostileBodiesMemoryTest {

  private static final int ORIGINS = 48;
  private static final int BODY = 2 << 20;

  @TempDir Path tmp;

  @Test
  void manyOriginsSendingWholePagesAndStallingDoNotRunTheHeapOut() throws Exception {
    CountDownLatch end = new CountDownLatch(1);
    List<ServerSocket> servers = new ArrayList<>();
    try {
      List<String> seeds = new ArrayList<>();
      for (int i = 1; i <= ORIGINS; i++) {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.1." + i), 0));
        servers.add(server);
        seeds.add("http://127.0.1." + i + ":" + server.getLocalPort() + "/");
        Thread.ofVirtual().start(() -> serve(server, end));
      }
      Path data = tmp.resolve("data");
      Path config = Files.writeString(tmp.resolve("forager.yaml"), "data_dir: \"" + data + "\"\nseeds: [ \""
          + String.join("\", \"", seeds) + "\" ]\n"
          + "politeness: { min_delay: 5ms, response_time_factor: 0 }\n"
          + "limits: { fetch_timeout: 8s, max_retries: 0 }\n"
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
      Path out = tmp.resolve("out.txt");
      Process child = ChildCrawl.builder(List.of("-Xmx96m"), config, "--quiet").redirectOutput(out.toFile()).start();
      boolean ended = child.waitFor(120, TimeUnit.SECONDS);
      if (!ended) child.destroyForcibly().waitFor();
      String output = Files.readString(out);
      assertTrue(ended, "the crawl ended by itself:\n" + output);
      assertEquals(0, child.exitValue(), output);
      assertTrue(output.matches("(?s)(.*\\R)?TRUNCATED +" + ORIGINS + "\\R.*"), "every page cut at the deadline:\n" + output);
    } finally {
      end.countDown();
      for (ServerSocket s : servers) s.close();
    }
  }

  /** robots.txt: 404. Any page: a Content-Length of 2 MiB, all but 10 bytes sent, then nothing until the end. */
  private static void serve(ServerSocket server, CountDownLatch end) {
    while (!server.isClosed()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException closed) {
        return;
      }
      Thread.ofVirtual().start(() -> {
        try (socket; InputStream in = socket.getInputStream(); OutputStream o = socket.getOutputStream()) {
          while (true) {
            String head = readHead(in);
            if (head == null) return;
            if (head.startsWith("GET /robots.txt")) {
              o.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
              o.flush();
              continue;
            }
            o.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + BODY + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'a');
            for (int sent = 0; sent < BODY - 10; sent += chunk.length) {
              o.write(chunk, 0, Math.min(chunk.length, BODY - 10 - sent));
            }
            o.flush();
            end.await(); // held until the test ends: the crawler's deadline cuts the page
            return;
          }
        } catch (IOException | InterruptedException e) {
          // The crawler gave up on the connection.
        }
      });
    }
  }

  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      head.append((char) c);
      if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) return head.toString();
    }
    return null;
  }
}
