package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import org.forager.crawl.Classification.Feedback;
import org.forager.fetch.FetchResult;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Test;

/** The one place that decides what a failure means (the crawl tests cover the responses). */
class ClassifierTest {

  private static Classification classify(FailureKind kind) {
    return new Classifier(Clock.systemUTC())
        .classify(new FetchResult.Failure("http://example.org/", Instant.now(), 1, kind, "message"));
  }

  /**
   * DESIGN.md's contract lists DNS_ERROR; an unresolvable host was logged as a NETWORK_ERROR. It is
   * retried with back-off (issue 14: "retried later with back-off, costing patience").
   */
  @Test
  void aHostThatDoesNotResolveIsADnsErrorRetriedWithBackOff() {
    Classification c = classify(FailureKind.DNS);
    assertEquals(Outcome.DNS_ERROR, c.outcome());
    assertEquals(Feedback.TRANSIENT, c.feedback());
  }

  @Test
  void failuresOfTheConnectionAndTheProtocol() {
    assertEquals(Outcome.NETWORK_ERROR, classify(FailureKind.NETWORK).outcome());
    assertEquals(Feedback.TRANSIENT, classify(FailureKind.NETWORK).feedback());
    assertEquals(Outcome.TIMEOUT, classify(FailureKind.TIMEOUT).outcome());
    assertEquals(Outcome.NETWORK_ERROR, classify(FailureKind.PROTOCOL).outcome());
    assertEquals(Outcome.NETWORK_ERROR, classify(FailureKind.TLS).outcome());
    assertEquals(Outcome.BLOCKED_BY_NETWORK_POLICY, classify(FailureKind.BLOCKED_BY_NETWORK_POLICY).outcome());
    assertEquals(Feedback.REFUSED, classify(FailureKind.BLOCKED_BY_NETWORK_POLICY).feedback());
  }
}
