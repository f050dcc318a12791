package org.forager.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.scope.RegistrableDomain;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Links per second through {@link org.forager.scope.Scope#contains}, asked for every discovered link:
 * the 38 normalized links of the synthetic page (37 distinct) (most of its own origin, some of other hosts), per
 * mode. {@code origins}: the page's origin and one other as seeds (the prefix loop); {@code
 * origins-1000}: 1,000 seed origins (the set lookup); {@code domains}: 1,000 seed domains; {@code
 * open-deny}: open mode with a deny list of 3 entries. {@link #registrableDomain} is the public suffix
 * lookup alone, per host of those links; it does not depend on the parameter ({@code -p scope=domains}
 * runs it once).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ScopeBenchmark {

  private static final int LINKS = 38;

  @Param({"origins", "origins-1000", "domains", "open-deny"})
  public String scope;

  private org.forager.scope.Scope subject;
  private List<String> links;
  private List<String> hosts;

  @Setup
  public void setUp() {
    links = new ArrayList<>();
    for (String href : SyntheticSite.decodedHrefs()) {
      UrlNormalizer.resolve(SyntheticSite.PAGE_URL, href).ifPresent(links::add);
    }
    if (links.size() != LINKS) throw new IllegalStateException("expected " + LINKS + " links, got " + links.size());
    hosts = links.stream().map(url -> Origin.ofUrl(url).host()).toList();
    Origin page = Origin.ofUrl(SyntheticSite.PAGE_URL);
    List<Origin> many = IntStream.range(0, 999).mapToObj(i -> new Origin("https", "site" + i + ".example", -1))
        .collect(ArrayList::new, List::add, List::addAll);
    many.add(page);
    subject = switch (scope) {
      case "origins" -> org.forager.scope.Scope.of(ScopeConfig.defaults(),
          List.of(page, Origin.ofUrl("https://example.com/")));
      case "origins-1000" -> org.forager.scope.Scope.of(ScopeConfig.defaults(), many);
      case "domains" -> org.forager.scope.Scope.of(ScopeConfig.of(ScopeConfig.Mode.DOMAINS), many);
      case "open-deny" -> org.forager.scope.Scope.of(new ScopeConfig(ScopeConfig.Mode.OPEN, List.of(),
          List.of("ads.example.net", ".xxx", "tracker.example.com"), ScopeConfig.DEFAULT_MAX_ORIGINS), List.of());
      default -> throw new IllegalArgumentException(scope);
    };
  }

  @Benchmark
  @OperationsPerInvocation(LINKS)
  public void contains(Blackhole blackhole) {
    for (String link : links) blackhole.consume(subject.contains(link));
  }

  @Benchmark
  @OperationsPerInvocation(LINKS)
  public void registrableDomain(Blackhole blackhole) {
    for (String host : hosts) blackhole.consume(RegistrableDomain.of(host));
  }
}
