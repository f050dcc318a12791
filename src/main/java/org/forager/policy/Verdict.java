package org.forager.policy;

import org.forager.fetch.Outcome;

/** A gate's answer for one URL. */
public sealed interface Verdict permits Verdict.Allowed, Verdict.Rejected {

  Verdict ALLOWED = new Allowed();

  record Allowed() implements Verdict {}

  /**
   * @param outcome the crawl-action outcome to log
   * @param reason which rule refused it, for people reading the log
   */
  record Rejected(Outcome outcome, String reason) implements Verdict {}
}
