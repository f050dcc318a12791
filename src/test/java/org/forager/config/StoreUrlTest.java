package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one redaction of store URLs: every secret hidden, everything else kept for the reader. */
class StoreUrlTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      jdbc:postgresql://db:5432/crawl?user=forager              | jdbc:postgresql://db:5432/crawl?user=forager
      jdbc:postgresql://db/crawl?user=f&password=s3cret&ssl=true | jdbc:postgresql://db/crawl?user=f&password=***&ssl=true
      jdbc:postgresql://db/crawl?PASSWORD=s3cret                | jdbc:postgresql://db/crawl?PASSWORD=***
      jdbc:postgresql://db/crawl?sslpassword=k3y&password=s3cret | jdbc:postgresql://db/crawl?sslpassword=***&password=***
      jdbc:postgresql://db/crawl?ssl.key.password=k3y           | jdbc:postgresql://db/crawl?ssl.key.password=***
      postgres://forager:s3cret@db/crawl                        | postgres://forager:***@db/crawl
      jdbc:postgresql://forager:s3cret@db:5432/crawl?user=x     | jdbc:postgresql://forager:***@db:5432/crawl?user=x
      postgresql://t0ken@db/crawl                               | postgresql://***@db/crawl
      postgres://forager:s3/cr@t@db/crawl                       | postgres://forager:***@db/crawl
      cannot connect to jdbc:postgresql://u:pw@db/c: refused     | cannot connect to jdbc:postgresql://u:***@db/c: refused
      FATAL: bad option password = s3cret                       | FATAL: bad option password = ***
      """)
  void hidesEverySecret(String text, String shown) {
    assertEquals(shown, StoreUrl.redact(text));
  }

  @Test
  void userinfoIsAnAtBeforeTheQuery() {
    assertTrue(StoreUrl.hasUserinfo("jdbc:postgresql://forager:s3cret@db/crawl"));
    assertTrue(StoreUrl.hasUserinfo("jdbc:postgresql://forager@db/crawl"));
    assertFalse(StoreUrl.hasUserinfo("jdbc:postgresql://db/crawl?user=a@b"));
    assertFalse(StoreUrl.hasUserinfo("jdbc:postgresql://db/crawl"));
  }

  @Test
  void aConfigurationPrintsItsStoreWithoutTheSecrets() {
    CrawlConfig.Store store = new CrawlConfig.Store("postgres", "jdbc:postgresql://db/c?password=s3cret",
        CrawlConfig.Store.DEFAULT_MEMORY_BYTES, Optional.empty());
    assertFalse(store.toString().contains("s3cret"), store.toString());
    assertFalse(CrawlConfig.defaults().toBuilder().store(store).build().toString().contains("s3cret"));
  }
}
