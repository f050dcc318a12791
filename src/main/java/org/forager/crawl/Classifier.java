package org.forager.crawl;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.forager.crawl.Classification.Feedback;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.url.FieldUrl;

/**
 * The one place that decides what a fetch result means: status codes, redirects, timeouts and
 * network failures map to an outcome and to politeness feedback here and nowhere else. Content
 * (HTML, canonical, noindex) refines a 2xx outcome later, in the crawl loop.
 */
final class Classifier {

  /** The longest wait a server's Retry-After is taken for. */
  static final Duration MAX_RETRY_AFTER = Duration.ofDays(30);

  private final Clock clock;

  Classifier(Clock clock) {
    this.clock = clock;
  }

  Classification classify(FetchResult result) {
    return switch (result) {
      case FetchResult.Failure f -> switch (f.kind()) {
        case TIMEOUT -> Classification.of(Outcome.TIMEOUT, Feedback.TRANSIENT);
        case NETWORK -> Classification.of(Outcome.NETWORK_ERROR, Feedback.TRANSIENT);
        // A refused certificate does not heal within a run: no retries, a patience point each.
        // Retried with back-off like a reset (the answer may come back; the negative cache keeps the
        // retries from asking DNS again too soon), a patience point once the retries run out.
        case DNS -> Classification.of(Outcome.DNS_ERROR, Feedback.TRANSIENT);
        // The name does not exist (or has no address): no page of the origin can be had this run, and
        // retries would hold its place in the working set for their back-off (dead domains abound in a
        // large seed list).
        case NO_SUCH_HOST -> Classification.of(Outcome.DNS_ERROR, Feedback.REFUSED);
        case PROTOCOL, TLS -> Classification.of(Outcome.NETWORK_ERROR, Feedback.PERSISTENT);
        case BLOCKED_BY_NETWORK_POLICY -> Classification.of(Outcome.BLOCKED_BY_NETWORK_POLICY, Feedback.REFUSED);
      };
      case FetchResult.Response r -> classify(r);
    };
  }

  private Classification classify(FetchResult.Response r) {
    int status = r.status();
    if (status >= 200 && status < 300) return Classification.of(Outcome.FETCHED, Feedback.OK);
    if (status == 304) return Classification.of(Outcome.NOT_MODIFIED, Feedback.OK);
    if (status >= 300 && status < 400) {
      Optional<String> location = r.header("Location").map(String::strip).filter(l -> !l.isEmpty()).map(FieldUrl::text);
      return location.isPresent()
          ? new Classification(Outcome.REDIRECT, Feedback.OK, Optional.empty(), location)
          : Classification.of(Outcome.HTTP_ERROR, Feedback.OK);
    }
    Optional<Duration> retryAfter = r.header("Retry-After").flatMap(this::parseRetryAfter);
    if (status == 429 || (status == 503 && retryAfter.isPresent())) {
      return new Classification(Outcome.RATE_LIMITED, Feedback.RATE_LIMITED, retryAfter, Optional.empty());
    }
    if (status == 503) return Classification.of(Outcome.HTTP_ERROR, Feedback.TRANSIENT);
    if (status == 401 || status == 403 || status == 451) return Classification.of(Outcome.HTTP_ERROR, Feedback.DENIED);
    if (status >= 400 && status < 500) return Classification.of(Outcome.HTTP_ERROR, Feedback.OK);
    return Classification.of(Outcome.HTTP_ERROR, Feedback.PERSISTENT);
  }

  /**
   * RFC 9110 section 10.2.3: delay-seconds or an HTTP-date, clamped to {@link #MAX_RETRY_AFTER} (a
   * server's number may be any size; the crawl computes times with it). Past the configured
   * politeness.max_retry_after the origin is put off anyway, so the clamp changes no decision.
   */
  Optional<Duration> parseRetryAfter(String value) {
    String v = value.strip();
    if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      // Digits only (RFC: 1*DIGIT); more than fit in a long is simply a very long time.
      long seconds = v.length() > 18 ? Long.MAX_VALUE : Long.parseLong(v);
      return Optional.of(Duration.ofSeconds(Math.min(seconds, MAX_RETRY_AFTER.toSeconds())));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      return Optional.of(clamp(Duration.between(clock.instant(), at.toInstant())));
    } catch (RuntimeException notDate) {
      return Optional.empty();
    }
  }

  private static Duration clamp(Duration d) {
    if (d.isNegative()) return Duration.ZERO;
    return d.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : d;
  }
}
