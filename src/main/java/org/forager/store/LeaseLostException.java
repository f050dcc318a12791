package org.forager.store;

import org.forager.url.Origin;

/**
 * A write that depends on holding an origin's lease was refused: the origin was claimed by another
 * process (or claimed anew) since this process was granted its lease, so what it learned since must
 * not overwrite the new holder's state (docs/fleet.md, "Fencing"). Nothing of the write was stored.
 * Not an error of the crawl: the caller drops the origin and carries on with the others.
 */
public final class LeaseLostException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Origin origin;

  public LeaseLostException(Origin origin) {
    super("the lease of " + origin + " moved to another holder; the write was refused");
    this.origin = origin;
  }

  /** The origin whose lease was lost. */
  public Origin origin() {
    return origin;
  }
}
