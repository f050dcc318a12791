package org.forager.cli.log;

import java.util.Optional;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger writing INFO and above to the {@link LibraryLog}; TRACE and DEBUG are off. Thread-safe. */
final class LibraryLogger extends LegacyAbstractLogger {

  private static final long serialVersionUID = 1L;

  private final transient LibraryLog log;

  LibraryLogger(String name, LibraryLog log) {
    this.name = name;
    this.log = log;
  }

  @Override
  public boolean isTraceEnabled() {
    return false;
  }

  @Override
  public boolean isDebugEnabled() {
    return false;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
      Throwable throwable) {
    if (level.toInt() < Level.INFO.toInt()) return;
    log.log(level.name(), name, MessageFormatter.basicArrayFormat(messagePattern, arguments),
        Optional.ofNullable(throwable));
  }
}
