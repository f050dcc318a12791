package org.forager.record;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.forager.config.CrawlConfig;

/**
 * A child process for {@link StagedCrawlLogTest}: opens the crawl log {@code args[0]} (rotating at
 * {@code args[2]} bytes, 0 for never) and logs actions numbered from {@code args[1]} on until it is
 * killed, some written, some appended and handed over in pairs; prints each number on standard output
 * once the call that handed its line over returned.
 */
public final class CrawlLogWriterChild {

  private CrawlLogWriterChild() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    long n = Long.parseLong(args[1]);
    long rotate = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(System.out, true);
    Optional<CrawlConfig.Log> policy = rotate > 0 ? Optional.of(new CrawlConfig.Log(rotate, false, Optional.empty()))
        : Optional.empty();
    CrawlLog log = CrawlLog.open(file, policy, Clock.systemUTC(), true, Duration.ofMillis(CrawlLog.FLUSH_MILLIS));
    while (true) {
      if (n % 3 == 0) {
        log.write(StagedCrawlLogTest.action(n));
        out.println(n);
        n++;
      } else {
        log.append(StagedCrawlLogTest.action(n));
        log.append(StagedCrawlLogTest.action(n + 1));
        log.handOver();
        out.println(n);
        out.println(n + 1);
        n += 2;
      }
    }
  }
}
