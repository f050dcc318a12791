package org.forager.sitemap;

import java.io.IOException;

/**
 * Reading a sitemap stopped on purpose, before the end of the file: a cap was reached or the content
 * is refused. Thrown by the streams under the parser, so the message is the reason to report however
 * the parser wraps it.
 */
final class Stop extends IOException {

  private static final long serialVersionUID = 1L;

  Stop(String reason) {
    super(reason);
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this; // an outcome, not a bug: no stack trace to fill
  }

  /** The one-line reason an exception from the parser or the streams stands for. */
  static String reason(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof Stop stop) return stop.getMessage();
    }
    String message = thrown.getMessage() == null ? thrown.getClass().getSimpleName() : thrown.getMessage();
    int newline = message.indexOf('\n');
    return "unreadable: " + (newline < 0 ? message : message.substring(0, newline));
  }
}
