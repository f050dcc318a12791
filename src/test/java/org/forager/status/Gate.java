package org.forager.status;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.TestSite;

/**
 * A page that holds its request until the test opens the gate: while it is held the crawl is known
 * to be in the middle of a fetch, so a test can look at the status of a run in progress without
 * guessing with sleeps.
 */
final class Gate implements TestSite.Route {

  private final String html;
  private final CountDownLatch arrived = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);

  Gate(String html) {
    this.html = html;
  }

  @Override
  public void handle(com.sun.net.httpserver.HttpExchange exchange) throws java.io.IOException {
    arrived.countDown();
    try {
      if (!open.await(60, TimeUnit.SECONDS)) throw new java.io.IOException("gate never opened");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    TestSite.respond(exchange, 200, "text/html; charset=utf-8", html);
  }

  void awaitArrival() throws InterruptedException {
    if (!arrived.await(30, TimeUnit.SECONDS)) throw new AssertionError("the crawl never reached the gate");
  }

  void open() {
    open.countDown();
  }

  /** A page linking to the given hrefs. */
  static String linking(String... hrefs) {
    StringBuilder sb = new StringBuilder("<!doctype html><html><body>");
    for (String href : hrefs) sb.append("<a href=\"").append(href).append("\">link</a>\n");
    return sb.append("</body></html>").toString();
  }
}
