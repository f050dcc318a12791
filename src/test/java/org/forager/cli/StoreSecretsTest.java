package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forager crawl} on PostgreSQL: the password from the environment or a file logs in, and no
 * error line shows a password (issue 12 item 11, issue 19 item 10).
 */
@Timeout(120)
class StoreSecretsTest {

  private static final String PASSWORD = "s3cret-Pa55";

  @TempDir static Path serverDir;
  @TempDir Path tmp;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  private static TestPostgres postgres;
  private static String roleUrl;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
    roleUrl = postgres.roleWithPassword("crawler_pw", PASSWORD);
    postgres.execute("CREATE SCHEMA crawler_pw AUTHORIZATION crawler_pw");
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @Test
  void aPasswordFromTheEnvironmentLogsTheCrawlIn() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path config = config(site, "store: { kind: postgres, url: \"" + roleUrl + "\" }");

      ProcessBuilder refused = ChildCrawl.builder(config, "--quiet");
      refused.environment().remove("FORAGER_STORE_PASSWORD");
      refused.environment().remove("PGPASSWORD");
      Output withoutPassword = run(refused);
      assertEquals(1, withoutPassword.exit(), withoutPassword.text());
      assertEquals(List.of("forager: cannot connect to the crawl database " + roleUrl + ": The server requested "
          + "SCRAM-based authentication, but no password was provided."), ownLines(withoutPassword.text()));

      ProcessBuilder child = ChildCrawl.builder(config, "--quiet");
      child.environment().put("FORAGER_STORE_PASSWORD", PASSWORD);
      Output crawled = run(child);
      assertEquals(0, crawled.exit(), crawled.text());
      assertTrue(site.paths().contains("/a"), site.paths().toString());
    }
  }

  @Test
  void aPasswordFileOpenToOthersIsRefusedInOneLine() throws Exception {
    Path file = tmp.resolve("password");
    Files.writeString(file, PASSWORD + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    Path config = config(null, "store: { kind: postgres, url: \"" + roleUrl + "\", password_file: \"" + file + "\" }");
    assertEquals(1, Main.run("crawl", "--config", config.toString()));
    assertEquals("forager: store.password_file " + file + " is open to group or others (rw-r-----); allow its "
        + "owner only, as libpq requires of .pgpass: chmod 600 " + file, console.err().strip());

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    try (TestSite site = TestSite.start()) {
      site.html("/", "<p>home</p>");
      Path crawl = config(site, "store: { kind: postgres, url: \"" + roleUrl + "\", password_file: \"" + file + "\" }");
      assertEquals(0, Main.run("crawl", "--config", crawl.toString(), "--quiet"), console.err());
    }
    assertEquals(0, Main.run("status", "--config", config.toString()), console.err());
  }

  @Test
  void aStoreUrlThatIsNotJdbcIsShownWithoutItsPassword() throws Exception {
    Path config = config(null, "store: { kind: postgres, url: \"postgres://forager:" + PASSWORD + "@db/crawl\" }");
    assertEquals(2, Main.run("crawl", "--config", config.toString()));
    assertEquals("forager: config: store.url: \"postgres://forager:***@db/crawl\" is not a PostgreSQL JDBC URL"
        + " (jdbc:postgresql://host/database)", console.err().strip());
  }

  @Test
  void aDatabaseThatCannotBeReachedIsShownWithoutItsPassword() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/crawl?user=forager&password=" + PASSWORD;
    Path config = config(null, "store: { kind: postgres, url: \"" + url + "\" }");
    assertEquals(1, Main.run("crawl", "--config", config.toString()));
    List<String> lines = ownLines(console.err());
    assertEquals(1, lines.size(), console.err());
    String message = lines.get(0);
    assertTrue(message.startsWith("forager: cannot connect to the crawl database jdbc:postgresql://127.0.0.1:"
        + port + "/crawl?user=forager&password=***: "), message);
    assertFalse(console.err().contains(PASSWORD), console.err());
  }

  /** Forager's own lines: the connection pool's INFO chatter is another issue's (12, item 0). */
  private static List<String> ownLines(String output) {
    return output.lines().filter(line -> !line.startsWith("[main] INFO com.zaxxer.hikari")).toList();
  }

  private record Output(int exit, String text) {}

  private Output run(ProcessBuilder builder) throws Exception {
    Path log = Files.createTempFile(tmp, "child", ".log");
    Process child = builder.redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
    if (!child.waitFor(90, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      throw new AssertionError("the crawl did not end: " + Files.readString(log));
    }
    return new Output(child.exitValue(), Files.readString(log));
  }

  private Path config(TestSite site, String storeYaml) throws IOException {
    Path config = Files.createTempFile(tmp, "forager", ".yaml");
    Files.writeString(config, "data_dir: \"" + tmp.resolve("data") + "\"\n"
        + (site == null ? "seeds: [ \"http://127.0.0.1:1/\" ]\n" : "seeds: [ \"" + site.url("/") + "\" ]\n")
        + "politeness: { min_delay: 10ms, response_time_factor: 0 }\n"
        + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n" + storeYaml + "\n");
    return config;
  }
}
