package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a benchmark script uses it: a child JVM, its output lines, its files, its exit. */
@Timeout(60)
class SyntheticWebMainTest {

  @TempDir
  Path dir;

  private static Process start(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), SyntheticWeb.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static BufferedReader stdout(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  @Test
  void printsReadyServesWritesTheAuditAndStopsAtTheEndOfStandardInput() throws Exception {
    int port = Servers.freePort(3);
    Path seeds = dir.resolve("seeds.txt");
    Path audit = dir.resolve("audit.json");
    Path log = dir.resolve("requests.csv");
    long launched = System.currentTimeMillis();
    Process p = start("--hosts", "3", "--pages", "20", "--latency-ms", "5", "--port", String.valueOf(port),
        "--seeds-file", seeds.toString(), "--audit-file", audit.toString(), "--log-file", log.toString(),
        "--stop-on-eof");
    BufferedReader out = stdout(p);
    String ready = out.readLine();
    long read = System.currentTimeMillis();
    String prefix = "READY hosts=3 pages=20 port=" + port + " latency_ms=5 first=127.1.0.1 last=127.1.0.3 started_ms=";
    assertTrue(ready.startsWith(prefix), ready);
    long started = Long.parseLong(ready.substring(prefix.length()));
    // Within a millisecond of rounding: after the launch, before the line was read.
    assertTrue(started >= launched - 1 && started <= read + 1, launched + " " + ready + " " + read);
    assertEquals(List.of("http://127.1.0.1:" + port + "/", "http://127.1.0.2:" + port + "/",
        "http://127.1.0.3:" + port + "/"), Files.readAllLines(seeds));
    try (RawHttp http = new RawHttp(1, port)) {
      assertEquals(200, http.fetch("/").status());
      assertEquals(200, http.fetch("/p/19.html").status());
      assertEquals(404, http.fetch("/private/x.html").status());
    }
    p.getOutputStream().close();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue());
    String rest = out.readLine() + "\n" + out.readLine();
    assertTrue(rest.startsWith("AUDIT requests=3 pages=2 distinct_pages=2 coverage=0.0333 private=1 max_in_flight=1"),
        rest);
    assertTrue(rest.endsWith("\nSTOPPED"), rest);

    String json = Files.readString(audit);
    assertTrue(json.contains("\"requests\": 3,") && json.contains("\"private_requests\": 1,"), json);
    List<String> hosts = Files.readAllLines(dir.resolve("audit-hosts.csv"));
    assertEquals(4, hosts.size());
    assertTrue(hosts.get(2).startsWith("1,127.1.0.2,3,2,0,1,"), hosts.get(2));
    assertEquals(4, Files.readAllLines(log).size());
  }

  @Test
  void sigtermStopsItAndStillWritesTheAudit() throws Exception {
    int port = Servers.freePort(1);
    Path audit = dir.resolve("audit");
    Process p = start("--hosts", "1", "--pages", "5", "--port", String.valueOf(port),
        "--audit-file", audit.toString());
    BufferedReader out = stdout(p);
    assertTrue(out.readLine().startsWith("READY "));
    try (RawHttp http = new RawHttp(0, port)) {
      assertEquals(200, http.fetch("/robots.txt").status());
    }
    p.destroy(); // SIGTERM
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    assertEquals(143, p.exitValue());
    assertTrue(Files.readString(audit).contains("\"robots_requests\": 1,"));
    assertTrue(Files.exists(dir.resolve("audit-hosts.csv")));
  }

  @Test
  void exitsWith2OnBadUsageAnd1WhenAnAddressIsTaken() throws Exception {
    Process bad = start("--hosts", "0");
    assertTrue(bad.waitFor(20, TimeUnit.SECONDS));
    assertEquals(2, bad.exitValue());

    int port = Servers.freePort(2);
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(Hosts.inetAddress(1), port));
      Process busy = start("--hosts", "2", "--port", String.valueOf(port));
      assertTrue(busy.waitFor(20, TimeUnit.SECONDS));
      assertEquals(1, busy.exitValue());
    }
  }
}
