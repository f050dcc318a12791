package org.forager.crawl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.store.CrawlStore;

/**
 * The crawl's scope kept in its store (setting {@value #NAME}), so that a crawl resumed without a
 * {@code scope} section (say {@code forager crawl --data-dir DIR}) keeps the scope it was started
 * with, and every process of a fleet sees the same one. A scope given in the configuration replaces
 * the saved one (docs/scope.md, "Resuming"). Stateless.
 */
final class ScopeSetting {

  static final String NAME = "scope";

  private ScopeSetting() {}

  /** The scope this run uses: the given one (saved for the next runs), else the saved one, else the default. */
  static ScopeConfig resolve(ScopeConfig configured, CrawlStore store) {
    Optional<ScopeConfig> saved = store.setting(NAME).flatMap(ScopeSetting::decode);
    if (!configured.isGiven()) return saved.orElse(configured);
    if (saved.isPresent() && !saved.get().equals(configured)) {
      Notice.printf("forager: the scope changes from %s to %s (kept for the next runs)", describe(saved.get()),
          describe(configured));
    }
    if (saved.isEmpty() || !saved.get().equals(configured)) store.saveSetting(NAME, encode(configured));
    return configured;
  }

  static String encode(ScopeConfig scope) {
    return "mode=" + scope.mode().key() + "\nallow=" + String.join(",", scope.allow())
        + "\ndeny=" + String.join(",", scope.deny()) + "\nmax_origins=" + scope.maxOrigins()
        + "\nmax_hops=" + scope.maxHops() + "\nmax_origins_per_domain=" + scope.maxOriginsPerDomain() + "\n";
  }

  /** The scope a value holds; empty (the default then applies) when it is not one this build can read. */
  static Optional<ScopeConfig> decode(String value) {
    try {
      Mode mode = null;
      List<String> allow = List.of();
      List<String> deny = List.of();
      long maxOrigins = ScopeConfig.DEFAULT_MAX_ORIGINS;
      int maxHops = 0;
      long maxPerDomain = ScopeConfig.DEFAULT_MAX_ORIGINS_PER_DOMAIN;
      for (String line : value.split("\n")) {
        int eq = line.indexOf('=');
        if (eq < 0) continue;
        String key = line.substring(0, eq);
        String v = line.substring(eq + 1);
        switch (key) {
          case "mode" -> mode = Mode.valueOf(v.toUpperCase(Locale.ROOT));
          case "allow" -> allow = list(v);
          case "deny" -> deny = list(v);
          case "max_origins" -> maxOrigins = Long.parseLong(v);
          case "max_hops" -> maxHops = Integer.parseInt(v);
          case "max_origins_per_domain" -> maxPerDomain = Long.parseLong(v);
          default -> { } // a key of a later version: ignored
        }
      }
      return mode == null ? Optional.empty() : Optional.of(
          new ScopeConfig(mode, allow, deny, maxOrigins, maxHops, maxPerDomain));
    } catch (IllegalArgumentException e) {
      Notice.println("forager: the scope saved in the store cannot be read (" + e.getMessage() + "); using the default");
      return Optional.empty();
    }
  }

  private static List<String> list(String v) {
    return v.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(v.split(",")));
  }

  private static String describe(ScopeConfig scope) {
    return "scope.mode " + scope.mode().key() + (scope.allow().isEmpty() ? "" : ", allow " + scope.allow())
        + (scope.deny().isEmpty() ? "" : ", deny " + scope.deny())
        + (scope.maxHops() == 0 ? "" : ", max_hops " + scope.maxHops())
        + (scope.maxOrigins() == ScopeConfig.DEFAULT_MAX_ORIGINS ? "" : ", max_origins " + scope.maxOrigins())
        + (scope.maxOriginsPerDomain() == ScopeConfig.DEFAULT_MAX_ORIGINS_PER_DOMAIN ? ""
        : ", max_origins_per_domain " + scope.maxOriginsPerDomain());
  }
}
