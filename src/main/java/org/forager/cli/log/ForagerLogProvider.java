package org.forager.cli.log;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J backend of the {@code forager} command: every logger writes to {@link LibraryLog#process()}.
 * Not registered as a service (a program using Forager as a library keeps its own backend); the
 * command names it in the {@code slf4j.provider} system property ({@link Logging#routeToLibraryLog}).
 */
public final class ForagerLogProvider implements SLF4JServiceProvider {

  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();
  private final Map<String, Logger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory factory =
      name -> loggers.computeIfAbsent(name, n -> new LibraryLogger(n, LibraryLog.process()));

  /** For SLF4J, which instantiates its provider by reflection. */
  public ForagerLogProvider() {}

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
    // Nothing to set up: the library log opens its file when the command knows the data directory.
  }
}
