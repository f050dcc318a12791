package org.forager.record;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The files one crawl log is made of: the finished parts, {@code crawl-YYYYMMDDTHHMMSSZ-N.jsonl.gz}
 * (the time its last line was written, then a sequence number that orders them), and the live file,
 * {@code crawl.jsonl}, last. A part is briefly {@code crawl-…-N.jsonl} while it is being compressed;
 * a {@code .gz.tmp} file is never a part, nor the live file's staged tail ({@code crawl.jsonl.tail},
 * whose lines reach the live file within a flusher's period: {@link CrawlLog}). Readers call {@link #parts} then {@link #open} each in turn,
 * gzip or not. Stateless and thread-safe.
 */
public final class CrawlLogFiles {

  private static final Pattern PART =
      Pattern.compile("crawl-(\\d{8}T\\d{6}Z)-(\\d{1,18})\\.jsonl(\\.gz)?");
  static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** A finished part's name, read. */
  record Part(Path file, Instant finished, long sequence, boolean gzipped) {}

  /** The note of what {@code log.keep} deleted, beside the parts. */
  static final String EXPIRED = "crawl-expired.txt";

  /**
   * What {@code log.keep} deleted of the log, all told: a reader of what is left knows it does not
   * start at the crawl's beginning (the audit cannot see an origin's robots.txt fetch in a deleted part).
   *
   * @param parts how many parts were deleted
   * @param lastSequence the highest sequence number deleted (the next parts' numbers go on from it)
   * @param lastLine when the newest deleted part's last line was written
   */
  public record Expired(long parts, long lastSequence, Instant lastLine) {}

  private CrawlLogFiles() {}

  /**
   * The files of the crawl log whose live file is {@code live}, in the order they were written: the
   * finished parts by sequence number, then {@code live} if it exists. A part found both gzipped and
   * not (a compression was interrupted after its last step) is read once, from the uncompressed file.
   * Empty when there is no log at all.
   */
  public static List<Path> parts(Path live) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Part p : finished(live.toAbsolutePath().getParent())) files.add(p.file());
    if (Files.isRegularFile(live)) files.add(live);
    return files;
  }

  /**
   * Reads one file that {@link #parts} named, unzipping a {@code .gz}. An uncompressed part that was
   * compressed and removed since it was listed is read from its {@code .gz}.
   */
  public static BufferedReader open(Path part) throws IOException {
    InputStream in;
    try {
      in = Files.newInputStream(part);
    } catch (NoSuchFileException e) {
      Path gz = part.resolveSibling(part.getFileName() + ".gz");
      if (!isPart(part) || part.toString().endsWith(".gz") || !Files.exists(gz)) throw e;
      return reader(new GZIPInputStream(Files.newInputStream(gz), 1 << 16));
    }
    return reader(part.toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in);
  }

  private static BufferedReader reader(InputStream in) {
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }

  /** The finished parts in {@code dir}, by sequence number; one entry per sequence number. */
  static List<Part> finished(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return List.of();
    TreeMap<Long, Part> bySequence = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Optional<Part> p = part(f);
        // The uncompressed file, when both are there: the .gz may be the one being written over.
        if (p.isPresent()) bySequence.merge(p.get().sequence(), p.get(), (a, b) -> a.gzipped() ? b : a);
      }
    }
    return List.copyOf(bySequence.values());
  }

  static Optional<Part> part(Path file) {
    Matcher m = PART.matcher(file.getFileName().toString());
    if (!m.matches()) return Optional.empty();
    Instant finished = STAMP.parse(m.group(1), Instant::from);
    return Optional.of(new Part(file, finished, Long.parseLong(m.group(2)), m.group(3) != null));
  }

  private static boolean isPart(Path file) {
    return part(file).isPresent();
  }

  /** The name of the part finished at {@code finished} with sequence number {@code sequence}, uncompressed. */
  static String name(Instant finished, long sequence) {
    return "crawl-" + STAMP.format(finished) + "-" + sequence + ".jsonl";
  }

  /** What log.keep deleted of the log whose live file is {@code live}, when it deleted anything. */
  public static Optional<Expired> expired(Path live) throws IOException {
    return expiredIn(live.toAbsolutePath().getParent());
  }

  static Optional<Expired> expiredIn(Path dir) throws IOException {
    Path file = dir.resolve(EXPIRED);
    if (!Files.isRegularFile(file)) return Optional.empty();
    java.util.Map<String, String> fields = new java.util.HashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      if (eq > 0) fields.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
    }
    try {
      return Optional.of(new Expired(Long.parseLong(fields.get("parts")), Long.parseLong(fields.get("last_sequence")),
          Instant.parse(fields.get("last_line"))));
    } catch (RuntimeException e) {
      throw new IOException(file + " is not what log.keep writes: " + e.getMessage());
    }
  }

  /**
   * Writes the note of what log.keep deleted: to a temporary file forced to disk, then renamed over the
   * old note, so that a crash leaves the old note or the new one, never a torn one.
   */
  static void recordExpired(Path dir, Expired expired) throws IOException {
    Path tmp = dir.resolve(EXPIRED + ".tmp");
    byte[] text = ("# parts of crawl.jsonl that log.keep deleted: forager audit reads what is left knowing it\n"
        + "parts=" + expired.parts() + "\nlast_sequence=" + expired.lastSequence() + "\nlast_line=" + expired.lastLine()
        + "\n").getBytes(StandardCharsets.UTF_8);
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(tmp,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
      java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(text);
      while (bytes.hasRemaining()) channel.write(bytes);
      channel.force(true);
    }
    Files.move(tmp, dir.resolve(EXPIRED), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The next sequence number: one more than any part's (or a leftover temporary file's) in {@code dir},
   * or than the last one log.keep deleted.
   */
  static long nextSequence(Path dir) throws IOException {
    long max;
    try {
      max = expiredIn(dir).map(Expired::lastSequence).orElse(0L);
    } catch (IOException damaged) {
      max = 0; // a note only: a damaged one must not stop the log (the parts' own numbers still order them)
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".tmp")) f = f.resolveSibling(name.substring(0, name.length() - 4));
        max = Math.max(max, part(f).map(Part::sequence).orElse(0L));
      }
    }
    return max + 1;
  }
}
