package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answers a {@link CachingResolver} remembers, each until its expiry: addresses (positive) or the
 * message of a failure (negative). At most {@code maxNames} names; adding one more evicts the oldest
 * stored, so that a crawl discovering hosts without end keeps a bounded map. Thread-safe (one lock:
 * a lookup's cost dwarfs it).
 */
final class AnswerCache {

  /** One remembered answer: exactly one of {@code addresses} and {@code failure} is present. */
  record Answer(List<InetAddress> addresses, String failure, boolean noSuchHost, long expiresAtNanos) {

    static Answer found(List<InetAddress> addresses, long expiresAtNanos) {
      return new Answer(List.copyOf(addresses), null, false, expiresAtNanos);
    }

    static Answer failed(String failure, long expiresAtNanos) {
      return new Answer(null, failure, false, expiresAtNanos);
    }

    /** A failure; {@code unknown} as a {@link NoSuchHostException} says the name has no address. */
    static Answer failed(UnknownHostException unknown, String failure, long expiresAtNanos) {
      return new Answer(null, failure, unknown instanceof NoSuchHostException, expiresAtNanos);
    }

    /** The addresses, or a fresh exception with the failure's message (a shared one would carry a stale trace). */
    List<InetAddress> get() throws UnknownHostException {
      if (addresses == null) throw noSuchHost ? new NoSuchHostException(failure) : new UnknownHostException(failure);
      return addresses;
    }

    boolean positive() {
      return addresses != null;
    }
  }

  private final Map<String, Answer> answers;

  AnswerCache(int maxNames) {
    if (maxNames < 1) throw new IllegalArgumentException("maxNames must be ≥ 1, was " + maxNames);
    // Insertion order: a refreshed name is put again and so counts as the newest.
    this.answers = new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Answer> eldest) {
        return size() > maxNames;
      }
    };
  }

  /** The answer for {@code name} if one is stored and has not expired at {@code nowNanos}. */
  synchronized Optional<Answer> get(String name, long nowNanos) {
    Answer answer = answers.get(name);
    if (answer == null) return Optional.empty();
    if (answer.expiresAtNanos() - nowNanos <= 0) {
      answers.remove(name);
      return Optional.empty();
    }
    return Optional.of(answer);
  }

  synchronized void put(String name, Answer answer) {
    answers.remove(name); // so that put moves it to the newest end
    answers.put(name, answer);
  }

  synchronized int size() {
    return answers.size();
  }
}
