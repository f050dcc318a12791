package org.forager.store;

/**
 * The store cannot be reached just now (its database server is down, restarting or unreachable):
 * the call wrote nothing, or, when the connection broke while it committed, perhaps everything; the
 * store itself is intact. Not a failure of the crawl: the caller waits for the store to come back
 * and does nothing meanwhile whose result it could not record (docs/fleet.md, "Database outages").
 */
public class StoreUnavailableException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
