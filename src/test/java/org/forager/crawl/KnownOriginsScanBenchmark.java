package org.forager.crawl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.forager.store.RocksCrawlStore;
import org.forager.url.Origin;

/**
 * What the first origin a run takes on costs when the store's scope is large: the scan that counts
 * the origins per registrable domain (docs/scope.md, "max_origins_per_domain"). Fills a store with N
 * origins of random domains, then times the scope's count, {@link KnownOrigins}' start and its first
 * take-on, three times. Not a test; run by
 *
 * <pre>mvn -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
 * java -Xmx264m --enable-native-access=ALL-UNNAMED -cp "target/classes:target/test-classes:$(cat target/bench-classpath.txt)" \
 *     org.forager.crawl.KnownOriginsScanBenchmark 1000000</pre>
 */
public final class KnownOriginsScanBenchmark {

  private KnownOriginsScanBenchmark() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Path dir = Files.createTempDirectory("forager-scan-bench");
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, 256L << 20)) {
      List<Origin> batch = new ArrayList<>();
      Random random = new Random(1);
      for (int i = 0; i < n; i++) {
        String host = (i % 3 == 0 ? "www." : "") + "site" + random.nextInt(n) + ".example" + (i % 7) + ".co.uk";
        batch.add(new Origin(i % 2 == 0 ? "https" : "http", host, i % 2 == 0 ? 443 : 80));
        if (batch.size() == 10_000) {
          store.addDiscoveredOrigins(batch);
          batch.clear();
        }
      }
      store.addDiscoveredOrigins(batch);
      for (int round = 0; round < 3; round++) {
        long start = System.nanoTime();
        long count = store.scopeCount();
        long counted = System.nanoTime();
        KnownOrigins origins = new KnownOrigins(store, known -> true, 10_000);
        long started = System.nanoTime();
        origins.admit("https://new" + round + ".example.org/");
        long takenOn = System.nanoTime();
        System.out.printf("%,d origins: scopeCount %.2f s, KnownOrigins %.2f s, first take-on (the scan) %.2f s%n",
            count, (counted - start) / 1e9, (started - counted) / 1e9, (takenOn - started) / 1e9);
      }
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
