/**
 * Where the libraries' logging goes when Forager runs as a command: {@code logs/library.log} under
 * the data directory, escaped and rate-limited, never the operator's terminal. The command line
 * chooses this backend for its own process ({@link org.forager.cli.log.Logging#routeToLibraryLog});
 * a program that uses Forager as a library keeps its own SLF4J backend.
 */
package org.forager.cli.log;
