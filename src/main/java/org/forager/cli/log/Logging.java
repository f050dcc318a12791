package org.forager.cli.log;

import java.util.logging.LogManager;
import java.util.logging.Logger;

/** Process-wide logging set-up of the {@code forager} command; a library never calls it. */
public final class Logging {

  private Logging() {}

  /**
   * Sends what libraries log through SLF4J and java.util.logging (so {@code System.Logger} too) to
   * {@link LibraryLog#process()} instead of the terminal. Call first thing in {@code main}, before any
   * library logs: SLF4J chooses its backend once. An {@code slf4j.provider} given on the command line
   * is respected.
   */
  public static void routeToLibraryLog() {
    if (System.getProperty("slf4j.provider") == null) {
      System.setProperty("slf4j.provider", ForagerLogProvider.class.getName());
      // SLF4J would announce the explicit choice on standard error ("SLF4J(I): Attempting to load...").
      if (System.getProperty("slf4j.internal.verbosity") == null) {
        System.setProperty("slf4j.internal.verbosity", "WARN");
      }
    }
    LogManager.getLogManager().reset(); // drops the console handler
    Logger root = Logger.getLogger("");
    root.setLevel(java.util.logging.Level.INFO);
    root.addHandler(new JulToLibraryLog(LibraryLog.process()));
  }
}
