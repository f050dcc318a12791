package org.forager.policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.forager.url.Origin;

/**
 * The {@code do_not_crawl_file} (seed 002's "NeverCrawl.txt"): one host or URL prefix per line, {@code #}
 * comments. Re-read when its modification time changes, checked at most every
 * {@link #CHECK_EVERY_NANOS}, so an operator can exclude a site from a running crawl. Thread-safe.
 */
public final class ExclusionFile {

  /** How often the file's modification time is looked at: rarely enough to cost nothing per URL. */
  static final long CHECK_EVERY_NANOS = 2_000_000_000L;

  private record Rules(FileTime modified, Set<String> hosts, List<String> prefixes) {}

  private final Path file;
  private final long checkEveryNanos;
  private volatile Rules rules;
  private volatile long nextCheck;

  private ExclusionFile(Path file, Rules rules, long checkEveryNanos) {
    this.file = file;
    this.rules = rules;
    this.checkEveryNanos = checkEveryNanos;
    this.nextCheck = System.nanoTime() + checkEveryNanos;
  }

  /**
   * Reads the file.
   *
   * @throws UncheckedIOException naming the file when it cannot be read
   */
  public static ExclusionFile watch(Path file) {
    return watch(file, CHECK_EVERY_NANOS);
  }

  static ExclusionFile watch(Path file, long checkEveryNanos) {
    try {
      return new ExclusionFile(file, read(file), checkEveryNanos);
    } catch (IOException e) {
      throw new UncheckedIOException("do_not_crawl_file " + file + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** Why the URL is excluded, when it is. */
  public Optional<String> refuses(String url) {
    Rules current = current();
    if (!current.hosts.isEmpty()) {
      String host = Origin.ofUrl(url).host();
      if (current.hosts.contains(host)) return Optional.of("do_not_crawl_file host " + host);
    }
    for (String prefix : current.prefixes) {
      if (url.startsWith(prefix)) return Optional.of("do_not_crawl_file prefix " + prefix);
    }
    return Optional.empty();
  }

  private Rules current() {
    long now = System.nanoTime();
    if (now - nextCheck < 0) return rules;
    synchronized (this) {
      if (now - nextCheck < 0) return rules;
      nextCheck = now + checkEveryNanos;
      try {
        if (!Files.getLastModifiedTime(file).equals(rules.modified)) {
          rules = read(file);
          System.err.printf("forager: re-read %s: %d hosts, %d prefixes excluded%n", file, rules.hosts.size(),
              rules.prefixes.size());
        }
      } catch (IOException e) {
        // Keep the rules last read: a file being rewritten may be missing for a moment.
        System.err.println("forager: cannot re-read " + file + " (" + e.getMessage() + "); keeping its last rules");
      }
      return rules;
    }
  }

  private static Rules read(Path file) throws IOException {
    FileTime modified = Files.getLastModifiedTime(file);
    Set<String> hosts = new HashSet<>();
    List<String> prefixes = new ArrayList<>();
    for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      int hash = raw.indexOf('#');
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
      if (line.isEmpty()) continue;
      if (line.contains("://")) prefixes.add(line);
      else hosts.add(line.toLowerCase(Locale.ROOT));
    }
    return new Rules(modified, Set.copyOf(hosts), List.copyOf(prefixes));
  }
}
