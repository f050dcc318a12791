package org.forager.cli.log;

import java.util.Optional;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * A java.util.logging handler writing INFO and above to a {@link LibraryLog}: the PostgreSQL driver,
 * the JDK's HTTP server and {@code System.Logger} log this way, to the terminal by default.
 */
final class JulToLibraryLog extends Handler {

  private final LibraryLog log;
  private final Formatter formatter = new SimpleFormatter();

  JulToLibraryLog(LibraryLog log) {
    this.log = log;
    setLevel(Level.INFO);
  }

  @Override
  public void publish(LogRecord record) {
    if (record == null || !isLoggable(record)) return;
    int level = record.getLevel().intValue();
    String word = level >= Level.SEVERE.intValue() ? "ERROR" : level >= Level.WARNING.intValue() ? "WARN" : "INFO";
    String logger = record.getLoggerName() == null ? "java.util.logging" : record.getLoggerName();
    log.log(word, logger, formatter.formatMessage(record), Optional.ofNullable(record.getThrown()));
  }

  @Override
  public void flush() {
    log.flushQuietly();
  }

  @Override
  public void close() {
    // The library log outlives java.util.logging's shutdown reset; the command closes it.
  }
}
