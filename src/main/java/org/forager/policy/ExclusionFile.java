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
import java.util.Optional;
import java.util.Set;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * The {@code do_not_crawl_file} (seed 002's "NeverCrawl.txt"), one rule per line, {@code #} comments:
 * <ul>
 *   <li>{@code example.com}: the domain and every subdomain ({@code www.example.com} too);
 *   <li>{@code host:www.example.com}: that host only;
 *   <li>{@code https://example.com/private/}: every URL starting with this prefix.
 * </ul>
 * Hosts and prefixes are read in the form normalized URLs have (lower case, IDN to ASCII, {@code %7E}
 * as {@code ~}), so a rule matches however it was spelled; a port on a host line is ignored (the host
 * is excluded on every port). A line that is none of these is an error naming the line. The file is
 * re-read when its modification time changes, checked at most every {@link #CHECK_EVERY_NANOS}, so
 * an operator can exclude a site from a running crawl; a re-read file with an error keeps the rules
 * last read. Thread-safe.
 */
public final class ExclusionFile {

  /** How often the file's modification time is looked at: rarely enough to cost nothing per URL. */
  static final long CHECK_EVERY_NANOS = 2_000_000_000L;
  /** How long the file must be left alone before a change is read: writers take a moment. */
  static final long SETTLE_MILLIS = 1_000;

  /**
   * A '*' is a character of a host name to the URL parser: a rule with one would match no site at all,
   * and an operator answering "stop crawling *.example.org" would believe it done.
   */
  private static final String WILDCARD =
      "a wildcard, which would match no site: write the domain alone, like example.org (it covers every host under it)";

  private record Rules(FileTime modified, HostRules hosts, List<String> prefixes) {}

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
   * @throws IllegalArgumentException naming the file and line when a line is not a rule
   */
  public static ExclusionFile watch(Path file) {
    return watch(file, CHECK_EVERY_NANOS);
  }

  static ExclusionFile watch(Path file, long checkEveryNanos) {
    try {
      return new ExclusionFile(file, read(file), checkEveryNanos);
    } catch (IOException e) {
      throw new UncheckedIOException(unreadable(file, e), e);
    }
  }

  /**
   * Reads the file once, to refuse a run before it starts (and creates its data directory).
   *
   * @return why the file cannot serve, naming it: unreadable, or a line that is not a rule
   */
  public static Optional<String> problem(Path file) {
    try {
      read(file);
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(unreadable(file, e));
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static String unreadable(Path file, IOException e) {
    // A relative path is read from the working directory, which a resumed crawl may not share: said.
    String where = file.isAbsolute() ? "" : " (a relative path, read from the working directory "
        + Path.of("").toAbsolutePath() + ")";
    return "do_not_crawl_file " + file + " cannot be read: " + org.forager.io.IoFailures.reason(e, file) + where;
  }

  /** Why the URL is excluded, when it is. */
  public Optional<String> refuses(String url) {
    Rules current = current();
    if (!current.hosts.isEmpty()) {
      Optional<String> rule = current.hosts.match(Origin.ofUrl(url).host());
      if (rule.isPresent()) return Optional.of("do_not_crawl_file " + rule.get());
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
        FileTime modified = Files.getLastModifiedTime(file);
        // A file changed this very second may still be being written: read it at the next check. A
        // time in the future (another machine's clock, on a shared disk) cannot be waited for.
        long age = System.currentTimeMillis() - modified.toMillis();
        boolean settled = age >= SETTLE_MILLIS || age < 0;
        if (!modified.equals(rules.modified) && settled) {
          if (Files.size(file) == 0) {
            // Truncated to be rewritten in place (an editor, "> file"): an empty file would end every
            // exclusion at once. To remove them all, leave a comment line.
            notice("forager: " + file + " is empty; keeping its last rules (write a comment line to remove them all)");
          } else {
            rules = read(file);
            notice(String.format("forager: re-read %s: %d hosts, %d domains, %d prefixes excluded", file,
                rules.hosts.hosts().size(), rules.hosts.domains().size(), rules.prefixes.size()));
          }
        }
      } catch (IOException | IllegalArgumentException e) {
        // Keep the rules last read: a file being rewritten may be missing or half written for a moment.
        notice("forager: cannot re-read " + file + " (" + e.getMessage() + "); keeping its last rules");
      }
      return rules;
    }
  }

  private static Rules read(Path file) throws IOException {
    FileTime modified = Files.getLastModifiedTime(file);
    Set<String> hosts = new HashSet<>();
    Set<String> domains = new HashSet<>();
    List<String> prefixes = new ArrayList<>();
    int number = 0;
    for (String written : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      int at = ++number;
      // A byte order mark some editors write (Windows Notepad) is not part of the first line's rule.
      String raw = at == 1 && written.startsWith("\uFEFF") ? written.substring(1) : written;
      int hash = raw.indexOf('#');
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
      if (line.isEmpty()) continue;
      if (line.contains("://")) {
        if (wildcardHost(line)) throw bad(file, at, raw, WILDCARD);
        prefixes.add(UrlNormalizer.prefix(line).orElseThrow(() -> bad(file, at, raw, "not an http(s) URL prefix")));
      } else if (line.regionMatches(true, 0, "host:", 0, 5)) {
        hosts.add(hostOf(file, at, raw, line.substring(5)));
      } else {
        domains.add(hostOf(file, at, raw, line));
      }
    }
    return new Rules(modified, new HostRules(hosts, domains), List.copyOf(prefixes));
  }

  /** A host or domain in normalized form; a port is dropped (the host is excluded on every port). */
  private static String hostOf(Path file, int number, String raw, String name) {
    String host = name.strip();
    int colon = host.lastIndexOf(':');
    if (colon > host.lastIndexOf(']') && host.substring(colon + 1).chars().allMatch(Character::isDigit)) {
      host = host.substring(0, colon);
    }
    if (host.indexOf('*') >= 0) throw bad(file, number, raw, WILDCARD);
    return UrlNormalizer.host(host)
        .orElseThrow(() -> bad(file, number, raw, "not a host name, a domain or an http(s) URL prefix"));
  }

  /** Whether the host of a prefix line (after its scheme, up to its path) holds a '*'. */
  private static boolean wildcardHost(String line) {
    int start = line.indexOf("://") + 3;
    int end = start;
    while (end < line.length() && "/?#".indexOf(line.charAt(end)) < 0) end++;
    return line.substring(start, end).indexOf('*') >= 0;
  }

  private static IllegalArgumentException bad(Path file, int number, String line, String why) {
    return new IllegalArgumentException("do_not_crawl_file " + file + " line " + number + ": \""
        + line.strip() + "\" is " + why);
  }

  /** A line for the operator: the file's lines are quoted in it, and may hold anything. */
  private static void notice(String line) {
    System.err.println(org.forager.record.TerminalText.escape(line));
  }
}
