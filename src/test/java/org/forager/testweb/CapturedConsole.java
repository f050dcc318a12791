package org.forager.testweb;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures System.out and System.err around each test, for tests of the command line:
 * {@code @RegisterExtension final CapturedConsole console = new CapturedConsole();}
 */
public final class CapturedConsole implements BeforeEachCallback, AfterEachCallback {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @Override
  public void beforeEach(ExtensionContext context) {
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setOut(savedOut);
    System.setErr(savedErr);
  }

  /** Everything written to standard output so far. */
  public String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Everything written to standard error so far. */
  public String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** Forgets what was captured so far. */
  public void reset() {
    out.reset();
    err.reset();
  }
}
