package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.record.LogAsKilled;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlStore;
import org.forager.store.DiscoveryGate;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page's log line, and those of the links refused as it was found, are in the log file (or staged in
 * its tail, written into it at the next open) before the store writes the page: a process killed
 * between the two leaves a log that has every action the store holds. The lines go to the OS once a
 * page, when the store's gate has decided; a store that asks the gate nothing (the PostgreSQL store's
 * way) is told the same before it writes, and the links its gate would have refused are refused at
 * their turn, also logged before they are written.
 */
@Timeout(60)
class LogBeforeWriteCrawlTest {

  @TempDir Path tmp;

  @Test
  void aPageAndItsRefusalsAreLoggedBeforeTheStoreWritesThem() throws Exception {
    assertLoggedFirst(false);
  }

  @Test
  void aStoreThatAsksTheGateNothingGetsTheLinesLoggedFirstToo() throws Exception {
    assertLoggedFirst(true);
  }

  private void assertLoggedFirst(boolean storeAsksNothing) throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nDisallow: /private/\n")
          .linking("/", "/private/a", "/p1")
          .linking("/p1", "/private/b", "/p2")
          .linking("/p2", "/");
      Path data = tmp.resolve("data");
      Path log = data.resolve("logs").resolve("crawl.jsonl");
      List<String> missing = Collections.synchronizedList(new ArrayList<>());
      Set<String> written = ConcurrentHashMap.newKeySet();
      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), ""),
          store -> checking(store, log, storeAsksNothing, missing, written))) {
        crawler.run();
      }
      assertEquals(List.of(), missing, "URLs the store was given to write before their line was in the log");
      assertTrue(written.containsAll(List.of(site.url("/"), site.url("/p1"), site.url("/p2"),
          site.url("/private/a"), site.url("/private/b"))), written.toString());
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, site.url("/private/b")));
    }
  }

  /**
   * The store, with every page write checked against the log file at the last moment the crawl can
   * make it: when the gate has decided (the store writes right after), or, for a store that asks the
   * gate nothing, when the page's write reaches it.
   */
  private static CrawlStore checking(CrawlStore store, Path log, boolean storeAsksNothing, List<String> missing,
      Set<String> written) {
    InvocationHandler handler = new InvocationHandler() {
      @Override
      public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        boolean gated = method.getName().equals("record") && args.length == 5;
        if (gated && storeAsksNothing) {
          // CrawlStore's own default: decides the gate, then makes the plain write (below).
          return InvocationHandler.invokeDefault(proxy, method, args);
        }
        if (method.getName().equals("recordAll")) {
          // The turn's refusals (those the gate did not refuse as found), written in one call.
          @SuppressWarnings("unchecked")
          List<CrawlRecord> records = (List<CrawlRecord>) args[0];
          check(log, records.stream().map(CrawlRecord::url).toList(), missing, written);
        }
        if (method.getName().equals("record") && args.length == 4) {
          @SuppressWarnings("unchecked")
          List<CrawlRecord> before = (List<CrawlRecord>) args[0];
          List<String> urls = new ArrayList<>();
          before.forEach(r -> urls.add(r.url()));
          urls.add(((CrawlRecord) args[1]).url());
          check(log, urls, missing, written);
        }
        if (gated) {
          String page = ((CrawlRecord) args[1]).url();
          DiscoveryGate gate = (DiscoveryGate) args[4];
          args[4] = new DiscoveryGate() {
            final List<String> refused = new ArrayList<>();

            @Override
            public Optional<CrawlRecord> refuse(Candidate candidate) {
              Optional<CrawlRecord> refusal = gate.refuse(candidate);
              refusal.ifPresent(r -> refused.add(r.url()));
              return refusal;
            }

            @Override
            public void decided() {
              gate.decided();
              List<String> urls = new ArrayList<>(refused);
              urls.add(page);
              check(log, urls, missing, written);
            }
          };
        }
        try {
          return method.invoke(store, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    };
    return (CrawlStore) Proxy.newProxyInstance(CrawlStore.class.getClassLoader(), new Class<?>[] {CrawlStore.class},
        handler);
  }

  /** Whether the lines of {@code urls} would be in the log after a kill now (in the file, or in its tail). */
  private static void check(Path log, List<String> urls, List<String> missing, Set<String> written) {
    String lines = LogAsKilled.text(log);
    for (String url : urls) {
      if (!lines.contains("\"url\":\"" + url + "\"")) missing.add(url);
      written.add(url);
    }
  }
}
