package org.forager.fetch;

/**
 * Where a fetch's response waits its turn to be read: the crawl's page gate. The fetcher
 * {@link #enter enters} once the request is on the wire, before the first byte of the response is
 * read, and {@link #leave leaves} while a read of the response waits for the network, entering again
 * once bytes came: a slow server holds no place in the gate, only a response ready to be read does.
 * A fetch that entered returns inside the gate (its caller leaves it); one that sent nothing never
 * entered. Called on the fetch's thread only.
 */
public interface ResponseGate {

  /** Waits for a place, unless this fetch holds one. */
  void enter();

  /** Gives the place back while the response waits for the network (nothing if none is held). */
  void leave();

  /** No gate: every response is read at once. */
  ResponseGate NONE = new ResponseGate() {
    @Override
    public void enter() {}

    @Override
    public void leave() {}
  };
}
