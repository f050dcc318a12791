package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The policy for threads that die of an uncaught error, with real threads dying; only the halt is
 * recorded instead of done. (OutOfMemoryTest runs the real thing in a child JVM.)
 */
@Timeout(30)
class FatalErrorsTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final List<Integer> halts = new CopyOnWriteArrayList<>();
  private final FatalErrors handler =
      new FatalErrors(new PrintStream(bytes, true, StandardCharsets.UTF_8), halts::add, 512L << 20);

  private String err() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private void die(Thread.Builder builder, Throwable e) throws InterruptedException {
    builder.uncaughtExceptionHandler(handler).start(() -> {
      if (e instanceof RuntimeException r) throw r;
      throw (Error) e;
    }).join();
  }

  @Test
  void outOfMemoryInAnyThreadEndsTheProcessWithOneLineNamingTheSetting() throws Exception {
    die(Thread.ofVirtual(), new OutOfMemoryError("Java heap space"));
    die(Thread.ofPlatform().name("forager-fetch-deadlines"), new OutOfMemoryError("Java heap space"));
    assertEquals(List.of(Main.EXIT_RUNTIME), halts, "halted once");
    assertEquals("forager: out of memory (Java heap, 512 MiB): " + FatalErrors.HEAP_FIX
        + "; what was recorded is safe, run again to resume", err().strip());
  }

  @Test
  void anOutOfMemoryErrorWrappedByAnExecutorIsStillOne() throws Exception {
    die(Thread.ofVirtual(), new RuntimeException(new ExecutionException(new OutOfMemoryError("Metaspace"))));
    assertEquals(List.of(Main.EXIT_RUNTIME), halts);
    assertTrue(err().startsWith("forager: out of memory (Metaspace): raise -XX:MaxMetaspaceSize"), err());
    assertEquals(1, err().lines().count());
  }

  @Test
  void aDeadPlatformThreadEndsTheProcessWithOneEscapedLine() throws Exception {
    die(Thread.ofPlatform().name("forager-wake-at"), new IllegalStateException("boom \u001b[2J"));
    assertEquals(List.of(Main.EXIT_RUNTIME), halts);
    assertEquals(1, err().lines().count(), err());
    assertTrue(err().startsWith("forager: internal thread \"forager-wake-at\" died: java.lang.IllegalStateException: "
        + "boom \\x1b[2J; stopping"), err());
  }

  @Test
  void aVirtualThreadsOtherErrorIsSurvivedAndPrintedABoundedNumberOfTimes() throws Exception {
    for (int i = 0; i < 50; i++) die(Thread.ofVirtual(), new StackOverflowError());
    assertEquals(List.of(), halts, "a crawl turn's task is dropped, the crawl goes on");
    assertEquals(FatalErrors.MAX_SURVIVED_LINES + 1, err().lines().count(), err());
    assertTrue(err().startsWith("forager: internal error in a crawl or status task: java.lang.StackOverflowError"));
  }
}
