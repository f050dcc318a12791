package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.forager.store.LeaseLostException;
import org.forager.store.StoreException;
import org.forager.store.StoreUnavailableException;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

/** What a crawl survives as one URL's failure, and what it must not swallow. */
class InternalErrorsTest {

  private final AtomicBoolean closing = new AtomicBoolean();
  private final InternalErrors errors = new InternalErrors((origin, e) -> { }, closing::get);

  @Test
  void aBugOnePageSetsOffIsContained() {
    assertTrue(errors.containable(new NullPointerException()));
    assertTrue(errors.containable(new IndexOutOfBoundsException(3)));
    assertTrue(errors.containable(new IllegalStateException("a parser's state")));
    assertTrue(errors.containable(new StackOverflowError()));
    assertTrue(errors.containable(new AssertionError("a library's")));
  }

  /** Disk full, store broken, the crawl database out of reach (the fleet waits for it): the crawl stops. */
  @Test
  void anOutputFailureAnywhereAmongTheCausesIsNot() {
    assertFalse(errors.containable(new UncheckedIOException(new IOException("No space left on device"))));
    assertFalse(errors.containable(new StoreException("crawl store: corrupt")));
    assertFalse(errors.containable(new StoreUnavailableException("crawl database unavailable", null)));
    assertFalse(errors.containable(new IllegalStateException("wrapped", new IOException("disk"))));
    assertFalse(errors.containable(new RuntimeException(new RuntimeException(new StoreException("deep")))));
  }

  /** The fleet's coordinator drops an origin another process claimed; an interruption is whoever's asked it. */
  @Test
  void whatEndsTheTurnIsNot() throws Exception {
    assertFalse(errors.containable(new LeaseLostException(Origin.ofUrl("https://example.org/"))));
    assertFalse(errors.containable(new IllegalStateException(new InterruptedException())));
    Thread.currentThread().interrupt();
    try {
      assertFalse(errors.containable(new IllegalStateException("while interrupted")));
      assertTrue(errors.containable(new StackOverflowError()), "an error is the JVM's matter, not the turn's");
    } finally {
      Thread.interrupted();
    }
  }

  /** A run whose stop was waited for in vain meets its outputs closed: what they throw then is the close's. */
  @Test
  void anExceptionOnceTheOutputsCloseIsNot() {
    closing.set(true);
    assertFalse(errors.containable(new IllegalStateException("WARC recorder is closed")));
    assertTrue(errors.containable(new StackOverflowError()));
  }

  @Test
  void anErrorTheJvmCannotGoOnAfterIsNot() {
    assertFalse(errors.containable(new OutOfMemoryError()));
    assertFalse(errors.containable(new InternalError()));
    assertFalse(errors.containable(new NoClassDefFoundError("org/example/Missing")));
    assertFalse(errors.containable(new java.io.IOError(new IOException("disk"))));
  }

  @Test
  void aCauseChainThatLoopsEnds() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    assertTrue(errors.containable(a));
  }
}
