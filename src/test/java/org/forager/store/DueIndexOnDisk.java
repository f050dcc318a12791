package org.forager.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.rocksdb.RocksIterator;

/** What the due index on disk holds, read past the store's own scans (due starts, held raises); tests. */
final class DueIndexOnDisk {

  private DueIndexOnDisk() {}

  /** {@code origin}'s never-crawled URLs as the due index has them, in its order, read from its prefix. */
  static List<String> fresh(RocksCrawlStore store, Origin origin) {
    byte[] prefix = Keys.duePrefix(origin);
    byte[] firstRecrawl = Keys.firstRecrawl(origin);
    List<String> urls = new ArrayList<>();
    try (RocksIterator it = store.database().db.newIterator(store.database().due)) {
      for (it.seek(prefix); it.isValid() && Arrays.compareUnsigned(it.key(), firstRecrawl) < 0; it.next()) {
        ByteReader suffix = Keys.dueSuffix(it.key(), prefix.length);
        suffix.readShortBigEndian(); // depth
        urls.add(suffix.readRestAsString());
      }
    }
    return urls;
  }

  /** A page fetched at {@code at}, due again 30 days later (after the tests' cutoffs). */
  static CrawlRecord fetched(String url, Instant at) {
    return new CrawlRecord(url, at, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 10, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
        at.plus(Duration.ofDays(30)));
  }
}
