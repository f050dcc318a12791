package org.forager.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.io.IoFailures;
import org.forager.url.UrlNormalizer;

/** Seed URLs: what makes one acceptable, and the seeds file format. Stateless. */
final class Seeds {

  private Seeds() {}

  /** Whether {@code url} is an absolute http or https URL, the only kind the crawl can start from. */
  static boolean isHttpUrl(String url) {
    // The normalizer is the one place that decides which URLs the crawl can know.
    return UrlNormalizer.normalize(url).isPresent();
  }

  /** The problem with a seed that is not an http(s) URL, for a message. */
  static String notHttpUrl(String url) {
    String problem = ConfigException.quote(url) + " is not an http(s) URL";
    // A list of domains (Tranco's, a registrar's) is the usual start of a domains crawl: say how to write one.
    if (!url.contains(":") && UrlNormalizer.normalize("http://" + url).isPresent()) {
      problem += " (a host name alone: write http://" + url + (url.contains("/") ? "" : "/") + ")";
    }
    return problem;
  }

  /**
   * What is wrong with {@code url} as a seed, for a message: not an http(s) URL, or longer than
   * {@code limits.max_url_length} once normalized (the crawl would only refuse it, and a PostgreSQL
   * store could not index it).
   */
  static Optional<String> problem(String url, int maxUrlLength) {
    Optional<String> normalized = UrlNormalizer.normalize(url);
    if (normalized.isEmpty()) return Optional.of(notHttpUrl(url));
    int length = normalized.get().length();
    if (length <= maxUrlLength) return Optional.empty();
    // Cut before a surrogate pair rather than through it (a lone half is no character to print).
    int cut = url.length() <= 60 ? url.length() : Character.isHighSurrogate(url.charAt(59)) ? 59 : 60;
    String start = cut == url.length() ? url : url.substring(0, cut) + "…";
    return Optional.of(ConfigException.quote(start) + " is longer than limits.max_url_length (" + maxUrlLength
        + "): " + length + " chars");
  }

  /**
   * The seeds in a seeds file, in file order: one URL per line (UTF-8), surrounding spaces ignored,
   * blank lines and lines starting with {@code #} skipped. A {@code #} later in a line is part of the
   * URL (a fragment), not a comment.
   *
   * @throws ConfigException naming {@code --seeds-file} when the file is missing, unreadable, or has a
   *     line that is not an http(s) URL or is longer than {@code maxUrlLength} normalized
   */
  static List<String> readFile(Path file, int maxUrlLength) {
    String flag = "--seeds-file " + file;
    // Read line by line into a packed list: a million seeds must not be a million strings at once.
    PackedStrings.Builder seeds = new PackedStrings.Builder();
    // Every bad line is read to the end and counted, the first few named: one run to fix them all, not one
    // run a line (a new user's list of 9 bad lines took 9 runs).
    List<String> problems = new ArrayList<>();
    long bad = 0;
    try (BufferedReader reader = Files.newBufferedReader(file)) {
      int number = 0;
      for (String line; (line = reader.readLine()) != null; ) {
        number++;
        // A byte order mark some editors write (Windows Notepad) is not part of the first URL.
        if (number == 1 && line.startsWith("\uFEFF")) line = line.substring(1);
        line = line.strip();
        if (line.isEmpty() || line.startsWith("#")) continue;
        Optional<String> problem;
        // The URL parser would take "https://a.org/ https://b.org/" as one URL with a %20 in its path.
        if (line.chars().anyMatch(Character::isWhitespace)) {
          problem = Optional.of(ConfigException.quote(line.length() <= 60 ? line : line.substring(0, 60) + "…")
              + " has a space inside: one URL per line (a space in a URL is written %20)");
        } else {
          problem = problem(line, maxUrlLength);
        }
        if (problem.isPresent()) {
          if (++bad <= NAMED_PROBLEMS) problems.add("line " + number + ": " + problem.get());
          continue;
        }
        if (bad == 0) seeds.add(line);
      }
    } catch (NoSuchFileException e) {
      throw ConfigException.flag(flag, "file not found");
    } catch (CharacterCodingException e) {
      throw ConfigException.flag(flag, "is not UTF-8 text");
    } catch (IOException e) {
      throw ConfigException.flag(flag, "cannot read: " + IoFailures.reason(e, file));
    }
    if (bad == 1) throw ConfigException.flag(flag, problems.getFirst());
    if (bad > 1) {
      throw ConfigException.flag(flag, String.format("%,d lines are not seeds (fix them, or # comments one out): %s%s",
          bad, String.join("; ", problems), bad > NAMED_PROBLEMS ? String.format("; and %,d more", bad - NAMED_PROBLEMS) : ""));
    }
    return seeds.build();
  }

  /** Bad lines of a seeds file a message names at most. */
  private static final int NAMED_PROBLEMS = 5;
}
