package org.forager.crawl;

import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.scope.RegistrableDomain;
import org.forager.scope.Scope;
import org.forager.url.Origin;

/** Which setting would bring a URL out of scope into it, for the notes of a run's summary. */
final class ScopeHints {

  private ScopeHints() {}

  /**
   * "; scope.mode: domains would include it" when the target is of the same registrable domain
   * (apex to www., http to https of a subdomain), else the seed to add (and what an open scope would
   * take in besides); empty when only a deny or
   * allow entry refuses it (the user wrote those on purpose).
   */
  static String toInclude(String from, String target, Scope scope) {
    if (scope.mode() == Mode.OPEN || scope.refuses(target).orElse("").contains("scope.deny")) return "";
    String fromDomain = RegistrableDomain.of(Origin.ofUrl(from).host());
    String targetDomain = RegistrableDomain.of(Origin.ofUrl(target).host());
    if (fromDomain.equals(targetDomain) && scope.mode() == Mode.ORIGINS) {
      return "; scope.mode: domains would include it";
    }
    // Not "or use scope.mode: open" alone: for a crawl of a list of sites that is a crawl of the web.
    return "; add " + Origin.ofUrl(target) + "/ as a seed (scope.mode: open would include it, and every other"
        + " site the crawl links to)";
  }
}
