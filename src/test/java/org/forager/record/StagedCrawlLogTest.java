package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig;
import org.forager.fetch.Outcome;
import org.forager.warc.StagedTail;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The crawl log's lines staged in its mapped tail ({@link StagedLogWrites}), on this machine's temporary
 * directory (ext4 or tmpfs: a file system that takes a tail): what a kill leaves at each step, what
 * readers of the file see, rotation, and the tails the next open finds.
 */
@Timeout(120)
class StagedCrawlLogTest {

  private static final int REGION = StagedLogWrites.REGION_BYTES;
  /** A flusher that never runs within a test: the file gets whole regions and what hand-overs complete. */
  private static final Duration NEVER = Duration.ofHours(1);
  private static final Pattern NUMBER = Pattern.compile("\"url\":\"http://a\\.example/(\\d+)\\?");

  @TempDir Path tmp;

  /** Action number {@code n}: lines of 300 to 1,500 bytes, so that regions end inside lines. */
  static CrawlAction action(long n) {
    String padding = "p".repeat((int) (n * 7919 % 1200));
    return new CrawlAction(Instant.parse("2026-12-01T00:00:00Z").plusMillis(n), CrawlAction.Kind.PAGE,
        "http://a.example/" + n + "?" + padding, Outcome.FETCHED, 200, Optional.of("text/html"), 10, 5,
        Optional.empty(), Optional.of("sha1:X"), 1, 1000, Optional.empty());
  }

  private Path live() {
    return tmp.resolve("logs/crawl.jsonl");
  }

  private Path tail() {
    return StagedTail.of(live());
  }

  private CrawlLog open(Optional<CrawlConfig.Log> policy, Duration flushEvery) {
    return CrawlLog.open(live(), policy, Clock.systemUTC(), true, flushEvery);
  }

  private static Optional<CrawlConfig.Log> rotateAt(long bytes) {
    return Optional.of(new CrawlConfig.Log(bytes, false, Optional.empty()));
  }

  private static long number(String line) {
    Matcher m = NUMBER.matcher(line);
    assertTrue(m.find(), line);
    return Long.parseLong(m.group(1));
  }

  private static List<Long> numbers(List<String> lines) {
    return lines.stream().map(StagedCrawlLogTest::number).toList();
  }

  /** The numbers of every line of the log, its parts then the live file, as a reader sees them. */
  private List<Long> numbers() throws IOException {
    List<Long> numbers = new ArrayList<>();
    for (Path part : CrawlLogFiles.parts(live())) {
      try (BufferedReader r = CrawlLogFiles.open(part)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) numbers.add(number(line));
      }
    }
    return numbers;
  }

  /**
   * How many of {@code numbers} from {@code at} belong to the run that numbered its lines from
   * {@code start} (the same quotient by {@code width}), asserting they are its first ones, in order.
   */
  private static int keptOfRun(List<Long> numbers, int at, long start, long width) {
    int kept = 0;
    while (at + kept < numbers.size() && numbers.get(at + kept) / width == start / width) kept++;
    assertEquals(range(start, start + kept), numbers.subList(at, at + kept), "run " + start / width);
    return kept;
  }

  private static List<Long> range(long from, long to) {
    List<Long> numbers = new ArrayList<>();
    for (long n = from; n < to; n++) numbers.add(n);
    return numbers;
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(live().getParent())) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void linesAreStagedAndTheFileGetsWholeLinesARegionAtATimeThenEveryLineOnClose() throws Exception {
    int lines = 0;
    boolean sawFileBehind = false;
    try (CrawlLog log = open(Optional.empty(), NEVER)) {
      assertTrue(Files.exists(tail()), "this file system takes a tail");
      while (LogAsKilled.bytes(live()).length < 3 * REGION) {
        log.write(action(lines++));
        byte[] file = Files.readAllBytes(live());
        byte[] logged = LogAsKilled.bytes(live());
        assertEquals(range(0, lines), numbers(LogAsKilled.lines(live())), "every line handed over survives a kill");
        assertTrue(file.length == 0 || file[file.length - 1] == '\n', "no torn line once a hand-over returned");
        assertArrayEquals(Arrays.copyOf(logged, file.length), file, "the file holds a prefix of the log");
        sawFileBehind |= file.length < logged.length;
      }
    }
    assertTrue(sawFileBehind, "lines were only staged between region writes");
    assertEquals(range(0, lines), numbers());
    assertFalse(Files.exists(tail()), "a clean close deletes the tail");
    assertEquals(List.of("crawl.jsonl"), names());
  }

  @Test
  void theFlusherWritesWhatIsStagedIntoTheFileForItsReaders() throws Exception {
    try (CrawlLog log = open(Optional.empty(), NEVER)) {
      log.write(action(1));
      assertEquals(0, Files.size(live()), "staged only");
      log.flushStaged(); // what the flusher runs
      assertEquals(List.of(1L), numbers(Files.readAllLines(live())));
      log.flushStaged(); // nothing more to write
      assertEquals(List.of(1L), numbers(Files.readAllLines(live())));
    }
  }

  @Test
  void aReaderOfTheFileSeesALineOnceTheFlusherRan() throws Exception {
    try (CrawlLog log = CrawlLog.open(live())) { // the flusher every FLUSH_MILLIS
      log.write(action(7));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.size(live()) == 0 && System.nanoTime() < deadline) LockSupport.parkNanos(1_000_000);
      assertEquals(List.of(7L), numbers(Files.readAllLines(live())), "in the file, with nothing else written");
      assertTrue(Files.exists(tail()), "still staged, the log open");
    }
  }

  @Test
  void aKillLosesNoLineHandedOverAndRepeatsNone() throws Exception {
    Random random = new Random(15);
    List<long[]> runs = new ArrayList<>(); // start, lines handed over, lines appended after
    for (int run = 0; run < 8; run++) {
      long start = run * 1_000_000L;
      int handedOver = 1 + random.nextInt(300);
      int appended = random.nextInt(3);
      // Every other run with a flusher that writes into the file all the time.
      CrawlLog log = open(Optional.empty(), run % 2 == 0 ? NEVER : Duration.ofMillis(1));
      for (long n = start; n < start + handedOver; n++) {
        if (n % 2 == 0) {
          log.write(action(n));
        } else {
          log.append(action(n));
          log.handOver();
        }
      }
      for (long n = start + handedOver; n < start + handedOver + appended; n++) log.append(action(n));
      log.abandon();
      runs.add(new long[] {start, handedOver, appended});
    }
    CrawlLog.open(live()).close();

    List<Long> numbers = numbers();
    int at = 0;
    for (long[] run : runs) {
      int kept = keptOfRun(numbers, at, run[0], 1_000_000);
      assertTrue(kept >= run[1] && kept <= run[1] + run[2], "every line handed over, once: " + kept + " of "
          + run[1] + " handed over and " + run[2] + " appended");
      at += kept;
    }
    assertEquals(numbers.size(), at);
    assertFalse(Files.exists(tail()));
  }

  /**
   * The file's region is written whole, then the tail states the next region: a kill in between leaves
   * the file holding the region (the end of it a line not handed over) and the tail still stating
   * the region as it was. The next open writes the tail's bytes at the region's place, not after the
   * file's end, and cuts the file after them: nothing lost, nothing twice.
   */
  @Test
  void aKillBetweenARegionsWriteAndTheTailsNextStateLosesAndRepeatsNothing() throws Exception {
    CrawlLog log = open(Optional.empty(), NEVER);
    int lines = 0;
    long logged = 0;
    // Past the first region, up to a line that would not fit in the current one.
    while (logged < REGION || logged % REGION + 2_000 < REGION) {
      log.write(action(lines++));
      logged = LogAsKilled.bytes(live()).length;
    }
    log.abandon();
    long base = logged / REGION * REGION;
    assertTrue(Files.size(live()) < logged, "the last lines staged only");
    // What the writer wrote: the region, its staged lines then the start of one not handed over.
    byte[] region = new byte[REGION];
    byte[] staged = LogAsKilled.bytes(live());
    System.arraycopy(staged, (int) base, region, 0, (int) (logged - base));
    byte[] next = "{\"ts\":\"2026-12-01T00:00:00Z\",\"kind\":\"page\",\"url\":\"http://a.example/".repeat(100)
        .getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(next, 0, region, (int) (logged - base), (int) (REGION - (logged - base)));
    try (FileChannel file = FileChannel.open(live(), StandardOpenOption.WRITE)) {
      ByteBuffer out = ByteBuffer.wrap(region);
      while (out.hasRemaining()) file.write(out, base + out.position());
    }
    assertEquals(base + REGION, Files.size(live()));

    try (CrawlLog reopened = open(Optional.empty(), NEVER)) {
      assertEquals(logged, Files.size(live()), "cut after the lines the tail stated");
      reopened.write(action(lines));
    }
    assertEquals(range(0, lines + 1), numbers());
  }

  /** A line crossing into the next region, never handed over: the tail states the next region empty. */
  @Test
  void aKillAfterTheTailStatesTheNextRegionCutsTheLineThatCrossedIntoIt() throws Exception {
    CrawlLog log = open(Optional.empty(), NEVER);
    int lines = 0;
    long logged = 0;
    while (logged % REGION + 2_000 < REGION) {
      log.write(action(lines++));
      logged = LogAsKilled.bytes(live()).length;
    }
    long n = lines;
    while (Files.size(live()) < REGION) log.append(action(n++)); // no hand-over: the region fills
    log.abandon();

    try (CrawlLog reopened = open(Optional.empty(), NEVER)) {
      reopened.write(action(1_000_000));
    }
    List<Long> numbers = numbers();
    assertEquals(range(0, lines), numbers.subList(0, lines), "every line handed over");
    assertEquals(List.of(1_000_000L), numbers.subList(numbers.size() - 1, numbers.size()));
    assertEquals(range(lines, lines + numbers.size() - 1 - lines), numbers.subList(lines, numbers.size() - 1),
        "of those appended, the whole lines the region's write took, once");
  }

  @Test
  void rotationCountsStagedBytesAndEveryPartHoldsItsLinesOnce() throws Exception {
    int rotateAt = 10_000; // a part long before the first region is full
    int lines = 400;
    try (CrawlLog log = open(rotateAt(rotateAt), NEVER)) {
      for (int n = 0; n < lines; n++) {
        log.write(action(n));
        for (Path part : CrawlLogFiles.parts(live())) {
          assertFalse(part.getFileName().toString().endsWith(StagedTail.SUFFIX), "a tail is no part: " + part);
        }
      }
    }
    assertEquals(range(0, lines), numbers());
    List<Path> parts = CrawlLogFiles.parts(live());
    assertTrue(parts.size() > 20, parts.toString());
    for (Path part : parts.subList(0, parts.size() - 1)) {
      long bytes;
      try (BufferedReader r = CrawlLogFiles.open(part)) {
        bytes = r.lines().mapToLong(l -> l.length() + 1).sum();
      }
      assertTrue(bytes >= rotateAt && bytes < rotateAt + 1_500, part + ": " + bytes);
    }
    assertTrue(names().stream().allMatch(n -> n.equals("crawl.jsonl") || n.endsWith(".jsonl.gz")), names().toString());
  }

  @Test
  void aKillOfARotatingLogLosesNoLineHandedOverAndRepeatsNone() throws Exception {
    CrawlLog log = open(rotateAt(100_000), NEVER);
    for (int n = 0; n < 250; n++) log.write(action(n));
    log.abandon();
    assertTrue(Files.exists(tail()));
    try (CrawlLog reopened = open(rotateAt(100_000), NEVER)) {
      for (int n = 250; n < 400; n++) reopened.write(action(n));
    }
    assertEquals(range(0, 400), numbers());
    assertTrue(CrawlLogFiles.parts(live()).size() > 3);
  }

  @Test
  void withoutATailEveryHandOverIsInTheFileAtOnce() throws Exception {
    try (CrawlLog log = CrawlLog.open(live(), Optional.empty(), Clock.systemUTC(), false, NEVER)) {
      for (int n = 0; n < 100; n++) {
        log.write(action(n));
        assertEquals(range(0, n + 1), numbers(Files.readAllLines(live())));
        assertFalse(Files.exists(tail()));
      }
    }
    assertEquals(range(0, 100), numbers());
  }

  @Test
  void aTailKilledBeforeItStatedAnythingIsDroppedAndTheLogKept() throws Exception {
    try (CrawlLog log = CrawlLog.open(live())) {
      log.write(action(1));
    }
    Files.write(tail(), new byte[100]); // torn while it was being created: no magic number
    try (CrawlLog log = CrawlLog.open(live())) {
      log.write(action(2));
    }
    assertEquals(List.of(1L, 2L), numbers());
    assertFalse(Files.exists(tail()));
  }

  @Test
  void anInconsistentTailFailsTheOpenNamingItAndIsKept() throws Exception {
    CrawlLog log = open(Optional.empty(), NEVER);
    log.write(action(1));
    log.abandon();
    try (FileChannel t = FileChannel.open(tail(), StandardOpenOption.WRITE)) {
      t.write(ByteBuffer.allocate(Long.BYTES).putLong(0, Integer.MAX_VALUE), 8); // the state: too many bytes
    }
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> CrawlLog.open(live()));
    assertTrue(e.getMessage().startsWith("cannot open crawl log " + live() + ": staged tail " + tail()
        + " is inconsistent"), e.getMessage());
    assertTrue(Files.exists(tail()), "kept for the operator to look at");
  }

  /**
   * A log changed after a kill, then opened with the tail still there: appended to by a writer that
   * took no tail (an older Forager: a line, or more than a region), or cut shorter (a machine crash
   * that wrote the tail back but not all of the file). The tail's lines would land over others or
   * past a hole: the open leaves the file as it is and sets the tail aside, whole, to be looked at.
   */
  @ParameterizedTest
  @ValueSource(strings = {"a line appended", "a region appended", "cut shorter"})
  void aTailThatNoLongerMatchesItsFileIsSetAsideAndTheFileKeptAsItIs(String change) throws Exception {
    CrawlLog log = open(Optional.empty(), NEVER);
    int lines = change.equals("cut shorter") ? 400 : 20; // past the first region, or within it
    for (int n = 0; n < lines; n++) log.write(action(n));
    log.abandon();
    byte[] tailBytes = Files.readAllBytes(tail());
    if (change.equals("cut shorter")) {
      try (FileChannel file = FileChannel.open(live(), StandardOpenOption.WRITE)) {
        file.truncate(REGION / 2);
      }
    } else {
      Files.move(tail(), tmp.resolve("aside.tail")); // out of the older writer's sight
      try (CrawlLog older = CrawlLog.open(live(), Optional.empty(), Clock.systemUTC(), false, NEVER)) {
        int more = change.equals("a line appended") ? 1 : 400;
        for (int n = 0; n < more; n++) older.write(action(100_000 + n));
      }
      Files.move(tmp.resolve("aside.tail"), tail());
    }
    List<Long> before = numbers(Files.readAllLines(live()).stream().filter(l -> l.endsWith("}")).toList());

    try (CrawlLog reopened = CrawlLog.open(live())) {
      reopened.write(action(1_000_000));
    }

    List<Long> expected = new ArrayList<>(before);
    expected.add(1_000_000L);
    assertEquals(expected, numbers(), "the file as it was (its torn line cut), then the new line");
    List<String> aside = names().stream().filter(n -> n.startsWith("crawl.jsonl.tail.unmatched-")).toList();
    assertEquals(1, aside.size(), names().toString());
    assertArrayEquals(tailBytes, Files.readAllBytes(live().resolveSibling(aside.get(0))));
    assertFalse(Files.exists(tail()));
  }

  /**
   * A child process logging as fast as it can, SIGKILLed at random moments (mid-line, mid-region,
   * between a region's write and the tail's next state, during a rotation): after the next open every
   * line whose hand-over returned is in the log once, in order, and nothing else but whole lines the
   * child had written.
   */
  @Test
  void aWriterKilledAtRandomMomentsLeavesEveryLineItHandedOverOnceInOrder() throws Exception {
    Random random = new Random();
    List<long[]> runs = new ArrayList<>(); // start, last acknowledged
    for (int run = 0; run < 5; run++) {
      long start = run * 10_000_000L;
      long rotate = run % 2 == 0 ? 0 : 200_000;
      Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp",
          System.getProperty("java.class.path"), CrawlLogWriterChild.class.getName(), live().toString(),
          Long.toString(start), Long.toString(rotate))
          .redirectError(ProcessBuilder.Redirect.appendTo(tmp.resolve("child.err").toFile())).start();
      long acknowledged = start - 1;
      int kill = 300 + random.nextInt(3_000);
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
        int read = 0;
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          acknowledged = Long.parseLong(line);
          // SIGKILL (through the handle: Process.destroyForcibly would close the pipe read here)
          if (++read == kill) child.toHandle().destroyForcibly();
        }
      }
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      assertTrue(acknowledged > start, "the child logged (run " + run + "): " + Files.readString(tmp.resolve("child.err")));
      runs.add(new long[] {start, acknowledged});
    }
    CrawlLog.open(live(), new CrawlConfig.Log(200_000, false, Optional.empty()), Clock.systemUTC()).close();

    List<Long> numbers = numbers();
    int at = 0;
    for (long[] run : runs) {
      int kept = keptOfRun(numbers, at, run[0], 10_000_000);
      assertTrue(run[0] + kept > run[1], "every line acknowledged: up to " + run[1] + ", kept " + kept);
      at += kept;
    }
    assertEquals(numbers.size(), at);
    assertTrue(names().stream().allMatch(n -> n.equals("crawl.jsonl") || n.endsWith(".jsonl.gz")), names().toString());
  }
}
