package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.BitSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The link graph, read back from the HTML as a crawler would resolve it (RFC 3986 section 5). */
class SiteGraphTest {

  @ParameterizedTest
  @CsvSource({"3, 300", "2, 1", "2, 2", "1, 7"})
  void everyPageIsReachableFromTheRootThroughSameHostLinks(int hosts, int pages) {
    WebConfig config = new WebConfig(hosts, pages, 8080, Duration.ZERO);
    PageRenderer renderer = new PageRenderer(config);
    for (int host = 0; host < hosts; host++) {
      String origin = config.origin(host);
      BitSet reached = new BitSet();
      ArrayDeque<Integer> todo = new ArrayDeque<>();
      reached.set(0);
      todo.add(0);
      while (!todo.isEmpty()) {
        int page = todo.poll();
        URI base = URI.create(origin + (page == 0 ? "/" : "/p/" + page + ".html"));
        int privateLinks = 0;
        int skipped = 0;
        int crossHost = 0;
        for (String href : PageRendererTest.links(new String(renderer.page(host, page), StandardCharsets.UTF_8))) {
          URI target = base.resolve(href);
          assertEquals("http", target.getScheme());
          if (!target.getAuthority().equals(base.getAuthority())) {
            crossHost++;
            assertCrossHostTargetExists(config, target);
            continue;
          }
          int code = Target.classify(target.getRawPath(), pages);
          assertNotEquals(Target.OTHER, code, "broken link " + href + " on " + base);
          assertNotEquals(Target.ROBOTS, code);
          if (code == Target.PRIVATE) privateLinks++;
          if (code == Target.SKIPPED_EXTENSION) skipped++;
          if (code >= 0 && !reached.get(code)) {
            reached.set(code);
            todo.add(code);
          }
        }
        assertEquals(2, privateLinks, base.toString());
        assertEquals(3, skipped, base.toString());
        assertEquals(hosts > 1 ? PageRenderer.CROSS_HOST_LINKS : 0, crossHost, base.toString());
      }
      assertEquals(pages, reached.cardinality(), "pages reached on host " + host);
    }
  }

  private static void assertCrossHostTargetExists(WebConfig config, URI target) {
    boolean known = false;
    for (int h = 0; h < config.hosts(); h++) {
      known |= target.getAuthority().equals(Hosts.address(h) + ":" + config.port());
    }
    assertTrue(known, "cross-host link to a benchmark host: " + target);
    assertTrue(Target.classify(target.getRawPath(), config.pages()) >= 0, "to a page: " + target);
  }
}
