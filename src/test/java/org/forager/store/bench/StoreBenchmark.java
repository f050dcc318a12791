package org.forager.store.bench;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.DueCandidate;
import org.forager.store.RocksCrawlStore;
import org.forager.url.Origin;

/**
 * Chooses the embedded store's engine (DESIGN.md: RocksDB or SQLite) by measuring the same crawl
 * workload on both: add synthetic links with exact dedup, pop the due candidates of every origin,
 * record a crawl of some of them, then the disk size. Not a test; run by hand (docs/store.md):
 *
 * <pre>java -cp ... org.forager.store.bench.StoreBenchmark [links] [origins] [records-per-origin] [dir]</pre>
 *
 * <p>The link stream is deterministic: every even link is a URL not seen before, every odd link
 * repeats a random earlier one, so exactly half are duplicates. Links come in pages of 40 and are
 * offered in batches of 1,000. Only the store calls are timed, not the generation of the input.
 */
public final class StoreBenchmark {

  private static final int BATCH = 1000;
  private static final int PAGE = 40;
  private static final Instant NOW = Instant.parse("2026-11-21T00:00:00Z");

  private final long links;
  private final int origins;
  private final int recordsPerOrigin;

  private StoreBenchmark(long links, int origins, int recordsPerOrigin) {
    this.links = links;
    this.origins = origins;
    this.recordsPerOrigin = recordsPerOrigin;
  }

  public static void main(String[] args) throws Exception {
    long links = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
    int origins = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    int recordsPerOrigin = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("forager-bench");
    StoreBenchmark bench = new StoreBenchmark(links, origins, recordsPerOrigin);
    System.out.printf(Locale.ROOT, "links=%d origins=%d batch=%d page=%d records/origin=%d cores=%d%n",
        links, origins, BATCH, PAGE, recordsPerOrigin, Runtime.getRuntime().availableProcessors());
    bench.rocks(dir.resolve("rocks"));
    bench.sqlite(dir.resolve("sqlite"));
    delete(dir);
  }

  private void rocks(Path dir) {
    long added = 0;
    long addNanos = 0;
    long popped = 0;
    long popNanos = 0;
    long recordNanos = 0;
    long recorded = 0;
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      LinkStream stream = new LinkStream();
      while (stream.hasNext()) {
        List<Candidate> batch = stream.next();
        long start = System.nanoTime();
        added += store.addCandidates(batch);
        addNanos += System.nanoTime() - start;
      }
      for (int o = 0; o < origins; o++) {
        Origin origin = Origin.ofUrl(originUrl(o));
        long start = System.nanoTime();
        List<DueCandidate> due = store.due(origin, NOW, 1_000);
        popNanos += System.nanoTime() - start;
        popped += due.size();
        List<CrawlRecord> crawls = due.stream().limit(recordsPerOrigin).map(d -> crawl(d.url())).toList();
        start = System.nanoTime();
        for (CrawlRecord crawl : crawls) store.record(crawl, List.of());
        recordNanos += System.nanoTime() - start;
        recorded += crawls.size();
      }
      if (store.urlCount() != links / 2) throw new IllegalStateException("count " + store.urlCount());
    }
    report("rocksdb", added, addNanos, popped, popNanos, recorded, recordNanos, dir);
  }

  private void sqlite(Path dir) throws SQLException, IOException {
    Files.createDirectories(dir);
    long added = 0;
    long addNanos = 0;
    long popped = 0;
    long popNanos = 0;
    long recordNanos = 0;
    long recorded = 0;
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("crawl.db"))) {
      try (Statement s = db.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA synchronous=NORMAL"); // like RocksDB without sync: survives kill -9
        s.execute("PRAGMA cache_size=-262144"); // 256 MiB, the RocksDB block cache's size
        s.execute("CREATE TABLE url (url TEXT PRIMARY KEY, origin TEXT NOT NULL, due INTEGER NOT NULL,"
            + " depth INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID");
        s.execute("CREATE INDEX url_due ON url (origin, due, depth)");
        s.execute("CREATE TABLE history (url TEXT NOT NULL, fetched_at INTEGER NOT NULL,"
            + " data BLOB NOT NULL, PRIMARY KEY (url, fetched_at)) WITHOUT ROWID");
      }
      db.setAutoCommit(false);
      try (PreparedStatement insert = db.prepareStatement("INSERT OR IGNORE INTO url VALUES (?, ?, 0, ?, ?)")) {
        LinkStream stream = new LinkStream();
        while (stream.hasNext()) {
          List<Candidate> batch = stream.next();
          long start = System.nanoTime();
          for (Candidate c : batch) {
            insert.setString(1, c.url());
            insert.setString(2, Origin.ofUrl(c.url()).toString());
            insert.setInt(3, c.depth());
            insert.setBytes(4, urlValue(c));
            insert.addBatch();
          }
          for (int n : insert.executeBatch()) added += n;
          db.commit();
          addNanos += System.nanoTime() - start;
        }
      }
      try (PreparedStatement due = db.prepareStatement("SELECT url, depth, data FROM url"
              + " WHERE origin = ? AND due <= ? ORDER BY due, depth, url LIMIT ?");
          PreparedStatement update = db.prepareStatement("UPDATE url SET due = ?, data = ? WHERE url = ?");
          PreparedStatement history = db.prepareStatement("INSERT INTO history VALUES (?, ?, ?)")) {
        for (int o = 0; o < origins; o++) {
          long start = System.nanoTime();
          due.setString(1, originUrl(o));
          due.setLong(2, NOW.toEpochMilli());
          due.setInt(3, 1_000);
          List<String> urls = new ArrayList<>();
          try (ResultSet rows = due.executeQuery()) {
            while (rows.next()) {
              urls.add(rows.getString(1));
              rows.getInt(2);
              rows.getBytes(3);
            }
          }
          db.commit();
          popNanos += System.nanoTime() - start;
          popped += urls.size();
          List<CrawlRecord> crawls = urls.stream().limit(recordsPerOrigin).map(StoreBenchmark::crawl).toList();
          start = System.nanoTime();
          for (CrawlRecord crawl : crawls) {
            byte[] value = crawlValue(crawl);
            update.setLong(1, crawl.nextFetchAt().toEpochMilli());
            update.setBytes(2, value);
            update.setString(3, crawl.url());
            update.executeUpdate();
            history.setString(1, crawl.url());
            history.setLong(2, crawl.fetchedAt().toEpochMilli());
            history.setBytes(3, value);
            history.executeUpdate();
            db.commit(); // one transaction per crawl action, as record() is atomic per call
          }
          recordNanos += System.nanoTime() - start;
          recorded += crawls.size();
        }
      }
    }
    report("sqlite", added, addNanos, popped, popNanos, recorded, recordNanos, dir);
  }

  private void report(String engine, long added, long addNanos, long popped, long popNanos,
      long recorded, long recordNanos, Path dir) {
    if (added != links / 2 || popped != links / 2) {
      throw new IllegalStateException(engine + ": added " + added + ", popped " + popped);
    }
    System.out.printf(Locale.ROOT,
        "%-8s add+dedup %,9.0f links/s (%5.1f s)  pop %,10.0f URLs/s (%5.1f s)  record %,8.0f/s (%5.1f s)"
            + "  disk %,6.1f MiB  (%d new URLs)%n",
        engine, links / seconds(addNanos), seconds(addNanos), popped / seconds(popNanos),
        seconds(popNanos), recorded / seconds(recordNanos), seconds(recordNanos),
        size(dir) / 1048576.0, added);
  }

  /** The synthetic link stream, identical for both engines. */
  private final class LinkStream {
    private final SplittableRandom random = new SplittableRandom(42);
    private long n;

    boolean hasNext() {
      return n < links;
    }

    List<Candidate> next() {
      List<Candidate> batch = new ArrayList<>(BATCH);
      for (int i = 0; i < BATCH && n < links; i++, n++) {
        // Even links are new URLs; odd links repeat one already offered (possibly in this batch).
        long id = n % 2 == 0 ? n / 2 : random.nextLong(n / 2 + 1);
        long page = n / PAGE;
        batch.add(new Candidate(url(id), 1 + (int) (page % 5), Optional.of(url(page))));
      }
      return batch;
    }
  }

  private String url(long id) {
    return originUrl((int) (id % origins)) + "/section-" + (id / origins % 50) + "/article-" + id
        + "-some-words-of-a-slug.html";
  }

  private static String originUrl(int origin) {
    return "https://www.site" + origin + ".example";
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, NOW, Outcome.FETCHED, 200, 120, Optional.of("text/html"), 24_000,
        Optional.of("sha1:2JMGXAYKS3TJLW5S6NUVB3XGSFCBMR6H"), Optional.empty(), Optional.empty(), false,
        false, Optional.of("\"5f3a-1b2c\""), Optional.of("Fri, 20 Nov 2026 10:00:00 GMT"),
        NOW.plus(Duration.ofDays(7)));
  }

  /** About what the RocksDB store keeps for a new URL. */
  private static byte[] urlValue(Candidate c) {
    return bytes(out -> {
      out.writeByte(c.depth());
      out.writeUTF(c.discoveredFrom().orElse(""));
      out.writeLong(NOW.toEpochMilli());
    });
  }

  /** About what the RocksDB store keeps for a crawl action. */
  private static byte[] crawlValue(CrawlRecord r) {
    return bytes(out -> {
      out.writeLong(r.fetchedAt().toEpochMilli());
      out.writeUTF(r.outcome().name());
      out.writeShort(r.httpStatus());
      out.writeLong(r.durationMillis());
      out.writeUTF(r.contentType().orElse(""));
      out.writeLong(r.contentLength());
      out.writeUTF(r.digest().orElse(""));
      out.writeUTF(r.etag().orElse(""));
      out.writeUTF(r.lastModified().orElse(""));
      out.writeLong(r.nextFetchAt().toEpochMilli());
    });
  }

  private interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] bytes(Writer writer) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        writer.write(out);
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static long size(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
    }
  }
}
