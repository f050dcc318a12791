package org.forager.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.io.IoFailures;

/**
 * Loads the crawl configuration: the YAML file when there is one, its missing keys from {@link
 * CrawlConfig#defaults()}, then the command-line flags over it ({@link Overrides}). Everything is
 * validated before it returns, so a crawl never starts on a half-understood configuration. The keys,
 * their defaults and meaning are in {@code docs/configuration.md}. Stateless and thread-safe.
 */
public final class ConfigLoader {

  private ConfigLoader() {}

  /**
   * The configuration of a run.
   *
   * @param yamlFile the {@code --config} file (UTF-8 YAML); empty for defaults and flags only
   * @param flags the command-line flags, which override the file
   * @throws ConfigException with a one-line message naming the file, key path or flag and the problem
   */
  public static CrawlConfig load(Optional<Path> yamlFile, Overrides flags) {
    CrawlConfig fromFile = ConfigReader.read(yamlFile.map(ConfigLoader::readFile).flatMap(YamlTree::parse));
    return withFlags(fromFile, flags);
  }

  private static String readFile(Path file) {
    try {
      String text = Files.readString(file);
      // A byte order mark some editors write is not part of the YAML.
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (NoSuchFileException e) {
      throw ConfigException.at(file.toString(), "file not found");
    } catch (CharacterCodingException e) {
      throw ConfigException.at(file.toString(), "is not UTF-8 text");
    } catch (IOException e) {
      throw ConfigException.at(file.toString(), "cannot read: " + IoFailures.reason(e, file));
    }
  }

  private static CrawlConfig withFlags(CrawlConfig config, Overrides flags) {
    List<String> seeds = config.seeds();
    if (flags.replacesSeeds()) {
      List<String> fromFlags = new ArrayList<>();
      int maxUrlLength = config.limits().maxUrlLength();
      for (String seed : flags.seeds()) {
        String url = seed.strip();
        Optional<String> problem = Seeds.problem(url, maxUrlLength);
        if (problem.isPresent()) throw ConfigException.flag("--seed", problem.get());
        fromFlags.add(url);
      }
      if (flags.seedsFile().isPresent()) {
        // Kept packed (a million seeds): the flags' few first, then the file's.
        PackedStrings.Builder all = new PackedStrings.Builder();
        fromFlags.forEach(all::add);
        Seeds.readFile(flags.seedsFile().get(), maxUrlLength).forEach(all::add);
        seeds = all.build();
      } else {
        seeds = List.copyOf(fromFlags);
      }
    }
    long maxActions = flags.maxActions().orElse(config.maxActions());
    if (maxActions < 0) throw ConfigException.flag("--max-actions", "must be ≥ 0");
    CrawlConfig.Status status = config.status();
    if (flags.statusPort().isPresent()) {
      int port = flags.statusPort().get();
      if (port < 0 || port > 65535) throw ConfigException.flag("--status-port", "must be between 0 and 65535");
      status = status.withPort(port);
    }
    return config.withSeeds(seeds).withDataDir(flags.dataDir().orElse(config.dataDir())).withMaxActions(maxActions)
        .withStatus(status);
  }
}
