package org.forager.status;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.forager.crawl.CrawlListener;
import org.forager.crawl.RunView;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;

/**
 * The crawl's Prometheus metrics (names in docs/status.md): crawl actions by outcome, bytes fetched,
 * fetch latency, the run's gauges, and the JVM's own metrics. Thread-safe.
 */
final class CrawlMetrics implements CrawlListener, AutoCloseable {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<CrawlAction.Kind, Map<Outcome, Counter>> actions = new EnumMap<>(CrawlAction.Kind.class);
  private final Map<CrawlAction.Kind, Timer> fetchDuration = new EnumMap<>(CrawlAction.Kind.class);
  private final Counter bytes;
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private volatile RunView run;

  /** A counter read from the DNS cache's own counts (they only grow), 0 before a run. */
  private void dnsCounter(String name, String description, java.util.function.ToLongFunction<RunView.DnsCounts> count) {
    FunctionCounter.builder(name, this, m -> m.run == null ? 0 : count.applyAsLong(m.run.dns()))
        .description(description).register(registry);
  }

  CrawlMetrics() {
    for (CrawlAction.Kind kind : CrawlAction.Kind.values()) {
      String k = kind.name().toLowerCase(Locale.ROOT);
      Map<Outcome, Counter> byOutcome = new EnumMap<>(Outcome.class);
      // Every series exists from the start, at 0, so that rate() sees the first increment.
      for (Outcome o : Outcome.values()) {
        byOutcome.put(o, Counter.builder("forager.crawl.actions")
            .description("Crawl actions (requests, and refusals without a request) by outcome")
            .tag("kind", k).tag("outcome", o.name()).register(registry));
      }
      actions.put(kind, byOutcome);
      fetchDuration.put(kind, Timer.builder("forager.fetch.duration")
          .description("Time from sending a request until its body was read")
          .tag("kind", k)
          // Buckets, not client-side percentiles: Prometheus computes any quantile over any window from them.
          .publishPercentileHistogram()
          .minimumExpectedValue(Duration.ofMillis(1))
          .maximumExpectedValue(Duration.ofMinutes(2))
          .register(registry));
    }
    bytes = Counter.builder("forager.fetch.bytes").baseUnit("bytes")
        .description("Body bytes fetched, after content decoding").register(registry);
    Gauge.builder("forager.origins.active", this, m -> m.run == null ? 0 : m.run.activeOrigins())
        .description("Origins waiting for their next turn or in a turn").register(registry);
    Gauge.builder("forager.urls.known", this, m -> m.run == null ? 0 : m.run.knownUrls())
        .description("URLs the crawl database knows").register(registry);
    dnsCounter("forager.dns.lookups", "Host names asked of the DNS cache (pinned names are not)",
        RunView.DnsCounts::lookups);
    dnsCounter("forager.dns.cache.hits", "DNS lookups answered from cached addresses", RunView.DnsCounts::cacheHits);
    dnsCounter("forager.dns.negative.hits", "DNS lookups answered from a cached failure",
        RunView.DnsCounts::negativeHits);
    dnsCounter("forager.dns.timeouts", "DNS lookups that passed network.dns.timeout", RunView.DnsCounts::timeouts);
    dnsCounter("forager.dns.answers", "DNS lookups the system resolver answered, late ones included",
        RunView.DnsCounts::answered);
    // Seconds summed: rate(seconds) / rate(answers) is the mean lookup latency over any window.
    FunctionCounter.builder("forager.dns.answer.time", this,
            m -> m.run == null ? 0 : m.run.dns().answerNanos() / 1e9)
        .baseUnit("seconds").description("Time the system resolver took for those answers, summed")
        .register(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  MeterRegistry registry() {
    return registry;
  }

  @Override
  public void runStarted(RunView run) {
    this.run = run;
  }

  @Override
  public void action(CrawlAction action) {
    actions.get(action.kind()).get(action.outcome()).increment();
    if (!action.outcome().isBlocked()) {
      fetchDuration.get(action.kind()).record(Duration.ofMillis(action.durationMillis()));
    }
    bytes.increment(action.bytes());
  }

  /** The metrics in the Prometheus text format. */
  String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
