package org.forager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The command-line flags that override the configuration file ({@code forager crawl --seed URL...
 * --seeds-file FILE --data-dir DIR --max-actions N --status-port N}). Immutable.
 *
 * <p>Seeds given by {@code --seed} or {@code --seeds-file} <em>replace</em> the file's {@code seeds}
 * (they do not add to them); when both flags are given their seeds are combined, {@code --seed} ones
 * first. A seeds file given with no URL in it still replaces the file's seeds, with none.
 *
 * @param seeds the {@code --seed} values, in order; empty when the flag was not given
 * @param seedsFile the {@code --seeds-file}: one URL per line, blank lines and lines starting with
 *     {@code #} ignored
 * @param dataDir the {@code --data-dir}, replacing {@code data_dir}
 * @param maxActions the {@code --max-actions}, replacing {@code max_actions}
 * @param statusPort the {@code --status-port}, replacing {@code status.port} (and so turning the
 *     status server on)
 */
public record Overrides(
    List<String> seeds, Optional<Path> seedsFile, Optional<Path> dataDir, Optional<Long> maxActions,
    Optional<Integer> statusPort) {

  public Overrides {
    seeds = List.copyOf(seeds);
    Objects.requireNonNull(seedsFile, "seedsFile");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(maxActions, "maxActions");
    Objects.requireNonNull(statusPort, "statusPort");
  }

  /** The flags without {@code --status-port}. */
  public Overrides(List<String> seeds, Optional<Path> seedsFile, Optional<Path> dataDir, Optional<Long> maxActions) {
    this(seeds, seedsFile, dataDir, maxActions, Optional.empty());
  }

  /** No flag given: the configuration file (or the defaults) decide everything. */
  public static Overrides none() {
    return new Overrides(List.of(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** Whether the seeds come from the flags rather than from the configuration file. */
  boolean replacesSeeds() {
    return !seeds.isEmpty() || seedsFile.isPresent();
  }
}
