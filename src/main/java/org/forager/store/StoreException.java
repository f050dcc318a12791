package org.forager.store;

/**
 * The crawl store cannot do what was asked: it cannot be opened (locked by another process,
 * corrupt, unreadable), the disk failed, or stored data is corrupt. The message names the store
 * and the reason. Callers in the crawl loop treat it as unanticipated (DESIGN.md: a store error
 * sets the origin's patience to 0).
 */
public class StoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
