package org.forager.fetch;

/**
 * Where a fetch's response waits its turn to be read: the crawl's page gate. The fetcher
 * {@link #enter enters} before it reads bytes of the response that are there, and reads that wait for
 * the network wait outside ({@link #leave left} first, entered again once bytes came): a server slow
 * to answer or to send holds no place in the gate, only a response ready to be read does. A fetch
 * that read a response returns inside the gate (its caller leaves it); one that sent nothing never
 * entered; one that failed may return outside. The time spent waiting to enter is not the server's:
 * it is left out of the fetch's duration. Called on the fetch's thread only.
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
