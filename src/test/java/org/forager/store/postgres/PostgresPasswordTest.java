package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.forager.config.CrawlConfig;
import org.forager.store.StoreException;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The password of the crawl database from a file or the environment, against a real server that
 * asks the role for it (SCRAM); and no message ever shows a password (issue 12 item 11, issue 19
 * item 10).
 */
@Timeout(120)
class PostgresPasswordTest {

  private static final String PASSWORD = "s3cret-Pa55";
  private static final UnaryOperator<String> NO_ENV = name -> null;

  @TempDir static Path serverDir;
  @TempDir Path tmp;

  private static TestPostgres postgres;
  /** The URL of a role that must give {@link #PASSWORD}; it holds no password itself. */
  private static String url;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
    url = postgres.roleWithPassword("forager_pw", PASSWORD);
    // Its own schema, first on its search path ("$user"): the crawl tables go there.
    postgres.execute("CREATE SCHEMA forager_pw AUTHORIZATION forager_pw");
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @Test
  void thePasswordFileLogsIn() throws IOException {
    Path file = secretFile(PASSWORD + "\n", "rw-------");
    assertOpens(withFile(file), NO_ENV);
  }

  @Test
  void foragerStorePasswordLogsInAndComesBeforePgpassword() {
    CrawlConfig.Store store = new CrawlConfig.Store("postgres", url);
    assertOpens(store, Map.of("FORAGER_STORE_PASSWORD", PASSWORD, "PGPASSWORD", "wrong")::get);
    assertOpens(store, Map.of("PGPASSWORD", PASSWORD)::get);
  }

  @Test
  void thePasswordFileComesBeforeTheEnvironment() throws IOException {
    Path file = secretFile(PASSWORD, "r--------");
    assertOpens(withFile(file),
        Map.of("FORAGER_STORE_PASSWORD", "wrong")::get);
  }

  @Test
  void aPasswordInTheUrlComesFirst() {
    assertOpens(new CrawlConfig.Store("postgres", url + "&password=" + PASSWORD),
        Map.of("FORAGER_STORE_PASSWORD", "wrong")::get);
  }

  @Test
  void aWrongPasswordIsRefusedByTheServerAndNotShown() {
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(
        new CrawlConfig.Store("postgres", url), Map.of("FORAGER_STORE_PASSWORD", "wrong-Secret-9")::get).close());
    assertTrue(e.getMessage().contains("password authentication failed for user \"forager_pw\""), e.getMessage());
    assertNoSecret(e, "wrong-Secret-9");
  }

  @Test
  void withoutAPasswordTheServerRefusesTheLogin() {
    StoreException e = assertThrows(StoreException.class,
        () -> PostgresCrawlStore.open(new CrawlConfig.Store("postgres", url), NO_ENV).close());
    assertTrue(e.getMessage().startsWith("cannot connect to the crawl database " + url + ": "), e.getMessage());
  }

  @Test
  void aPasswordFileOpenToGroupOrOthersIsRefused() throws IOException {
    Path file = secretFile(PASSWORD, "rw-r--r--");
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(
        withFile(file), NO_ENV).close());
    assertEquals("store.password_file " + file + " is open to group or others (rw-r--r--); allow its owner "
        + "only, as libpq requires of .pgpass: chmod 600 " + file, e.getMessage());
  }

  @Test
  void aPasswordFileThatIsMissingEmptyOrATableIsRefused() throws IOException {
    Path missing = tmp.resolve("missing");
    assertEquals("store.password_file " + missing + " cannot be read (java.nio.file.NoSuchFileException: "
        + missing + ")", assertThrows(StoreException.class, () -> Passwords.readFile(missing)).getMessage());
    Path empty = secretFile("\n", "rw-------");
    assertEquals("store.password_file " + empty + " is empty: it must hold the password",
        assertThrows(StoreException.class, () -> Passwords.readFile(empty)).getMessage());
    Path table = secretFile("db:5432:*:forager:" + PASSWORD + "\nother:*:*:*:x\n", "rw-------");
    StoreException e = assertThrows(StoreException.class, () -> Passwords.readFile(table));
    assertTrue(e.getMessage().endsWith("holds more than one line: it must hold the password alone (not a "
        + ".pgpass table)"), e.getMessage());
    assertNoSecret(e, PASSWORD);
  }

  @Test
  void aPasswordThatEndsInABlankKeepsIt() throws IOException {
    assertEquals("pass word ", Passwords.readFile(secretFile("pass word \r\n", "rw-------")));
  }

  @Test
  void cannotConnectHidesEveryPasswordParameter() throws IOException {
    String closed = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/crawl?user=forager&password=" + PASSWORD
        + "&sslpassword=k3y-Pass&sslmode=disable";
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(closed, 1));
    assertTrue(e.getMessage().startsWith("cannot connect to the crawl database jdbc:postgresql://127.0.0.1:"),
        e.getMessage());
    assertTrue(e.getMessage().contains("/crawl?user=forager&password=***&sslpassword=***&sslmode=disable: "),
        e.getMessage());
    assertNoSecret(e, PASSWORD);
    assertNoSecret(e, "k3y-Pass");
  }

  @Test
  void aUserAndPasswordBeforeTheHostAreRefusedWithoutShowingThePassword() {
    String withUserinfo = "jdbc:postgresql://forager:" + PASSWORD + "@127.0.0.1:1/crawl";
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(withUserinfo, 1));
    assertEquals("cannot connect to the crawl database jdbc:postgresql://forager:***@127.0.0.1:1/crawl: the "
        + "PostgreSQL driver reads no user:password@ in a JDBC URL; give ?user=NAME and the password apart",
        e.getMessage());
    assertNoSecret(e, PASSWORD);
  }

  private static CrawlConfig.Store withFile(Path file) {
    return new CrawlConfig.Store("postgres", url, CrawlConfig.Store.DEFAULT_MEMORY_BYTES, Optional.of(file));
  }

  private static void assertOpens(CrawlConfig.Store store, UnaryOperator<String> env) {
    try (PostgresCrawlStore opened = PostgresCrawlStore.open(store, env)) {
      // The role may create the schema in its own search path: a write and a read prove the login.
      opened.addScope(Set.of(Origin.ofUrl("https://example.org/")));
      assertEquals(Set.of(Origin.ofUrl("https://example.org/")), opened.scope());
    }
  }

  /** Neither the message nor any cause's message shows {@code secret}. */
  private static void assertNoSecret(Throwable e, String secret) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains(secret), "secret shown: " + t);
    }
  }

  private Path secretFile(String content, String permissions) throws IOException {
    Path file = Files.createTempFile(tmp, "password", "");
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
