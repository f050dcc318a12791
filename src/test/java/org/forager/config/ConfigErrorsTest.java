package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every configuration mistake stops the load with its exact one-line message. */
class ConfigErrorsTest {

  @TempDir Path dir;

  static Stream<Arguments> mistakesInTheFile() {
    return Stream.of(
        // Values that are not what the key holds.
        arguments("politeness: { min_delay: fast }",
            "config: politeness.min_delay: \"fast\" is not a duration (use a number and ms, s, m, h, d or w)"),
        arguments("politeness: { min_delay: -1s }",
            "config: politeness.min_delay: \"-1s\" is negative; a duration must be ≥ 0"),
        arguments("robots: { cache_ttl: 30 }",
            "config: robots.cache_ttl: \"30\" has no unit (use ms, s, m, h, d or w)"),
        arguments("recrawl: { interval: 1y }",
            "config: recrawl.interval: \"1y\" has an unknown unit \"y\" (use ms, s, m, h, d or w)"),
        arguments("recrawl: { min_interval: 2d, max_interval: 1d }",
            "config: recrawl: min_interval (2d) must be ≤ max_interval (1d)"),
        arguments("recrawl: { interval: 10d, max_interval: 1d }",
            "config: recrawl: interval (10d) must be between min_interval (1h) and max_interval (1d)"),
        arguments("recrawl: { interval: 30m, min_interval: 1h }",
            "config: recrawl: interval (30m) must be between min_interval (1h) and max_interval (30d)"),
        arguments("recrawl: { max_interval: fortnight }",
            "config: recrawl.max_interval: \"fortnight\" is not a duration (use a number and ms, s, m, h, d or w)"),
        arguments("limits: { max_page_bytes: 2MB }",
            "config: limits.max_page_bytes: \"2MB\" has an unknown unit \"MB\" (use B, KiB, MiB or GiB; 1 KiB = 1024 B)"),
        arguments("limits: { max_depth: ten }", "config: limits.max_depth: \"ten\" is not a whole number"),
        arguments("limits: { max_depth: 1.5 }", "config: limits.max_depth: 1.5 is not a whole number"),
        arguments("max_actions: \"1000\"", "config: max_actions: \"1000\" is not a whole number"),
        arguments("politeness: { response_time_factor: high }",
            "config: politeness.response_time_factor: \"high\" is not a number"),
        arguments("network: { allow_private_addresses: \"yes\" }",
            "config: network.allow_private_addresses: \"yes\" is not true or false"),
        // YAML 1.1's other spellings of booleans and integers are not taken (SnakeYAML read them).
        arguments("network: { allow_private_addresses: yes }",
            "config: network.allow_private_addresses: \"yes\" is not true or false"),
        arguments("network: { allow_private_addresses: off }",
            "config: network.allow_private_addresses: \"off\" is not true or false"),
        arguments("concurrency: 0x10", "config: concurrency: \"0x10\" is not a whole number"),
        arguments("concurrency: 010", "config: concurrency: \"010\" is not a whole number"),
        arguments("concurrency: 1:30", "config: concurrency: \"1:30\" is not a whole number"),
        arguments("politeness: { response_time_factor: .inf }",
            "config: politeness.response_time_factor: \".inf\" is not a number"),
        // Wrong shapes, named by path.
        arguments("politeness: [ 1s ]", "config: politeness: must be a map (key: value), found a list"),
        arguments("seeds: \"https://example.org/\"", "config: seeds: must be a list, found \"https://example.org/\""),
        arguments("user_agent: [ ForagerBot ]", "config: user_agent: must be a string, found a list"),
        arguments("politeness: { min_delay: { s: 1 } }", "config: politeness.min_delay: must be a duration, found a map"),
        arguments("limits: { max_page_bytes: [ 1 ] }", "config: limits.max_page_bytes: must be a size, found a list"),
        arguments("- seeds", "config: the file must be a map (key: value), found a list"),
        arguments("just words", "config: the file must be a map (key: value), found \"just words\""),
        arguments("max_actions:", "config: max_actions: has no value (give one, or remove the key to use the default)"),
        arguments("store:", "config: store: has no value (give one, or remove the key to use the default)"),
        arguments("seeds: [ \"https://a.example/\", ~ ]", "config: seeds[1]: has no value"),
        // Unknown keys, with a suggestion when one is close.
        arguments("politness: { min_delay: 1s }", "config: unknown key 'politness' (did you mean 'politeness'?)"),
        arguments("politeness: { min_dealy: 1s }",
            "config: politeness: unknown key 'min_dealy' (did you mean 'min_delay'?)"),
        arguments("User_Agent: Bot", "config: unknown key 'User_Agent' (did you mean 'user_agent'?)"),
        arguments("network: { private: true }",
            "config: network: unknown key 'private' (known keys: allow_private_addresses, resolve, dns, tls, early_requests)"),
        arguments("do_not_crawl: [ { hots: ads.example.org } ]",
            "config: do_not_crawl[0]: unknown key 'hots' (did you mean 'host'?)"),
        arguments("colour: blue", "config: unknown key 'colour' (known keys: user_agent, seeds, data_dir, max_actions,"
            + " concurrency, politeness, robots, recrawl, skip_extensions, limits, do_not_crawl, url_query_parameters,"
            + " network, store, warc, sitemaps, do_not_crawl_file, fleet, status, duplicates, scope, sites, log)"),
        arguments("min_delay: 2s", "config: unknown key 'min_delay' (did you mean 'politeness.min_delay'? it goes under"
            + " politeness:)"),
        arguments("politeness: { per_ip: { max_in_flight: 0 } }",
            "config: politeness.per_ip.max_in_flight: must be ≥ 1"),
        arguments("politeness: { per_ip: { max_in_flight: two } }",
            "config: politeness.per_ip.max_in_flight: \"two\" is not a whole number"),
        arguments("politeness: { per_ip: { min_delay: -1s } }",
            "config: politeness.per_ip.min_delay: \"-1s\" is negative; a duration must be ≥ 0"),
        arguments("politeness: { per_ip: 1 }", "config: politeness.per_ip: must be a map (key: value), found 1"),
        arguments("politeness: { per_ip: { max_inflight: 2 } }",
            "config: politeness.per_ip: unknown key 'max_inflight' (did you mean 'max_in_flight'?)"),
        arguments("duplicates: { skip_links: maybe }", "config: duplicates.skip_links: \"maybe\" is not true or false"),
        arguments("duplicates: { skip: true }", "config: duplicates: unknown key 'skip' (known keys: skip_links)"),
        arguments("fleet: { lease: 0s }", "config: fleet.lease: must be > 0"),
        arguments("fleet: { lease: 100ms }", "config: fleet.lease: must be at least 300ms, got 100ms"),
        arguments("fleet: { leases: 1m }", "config: fleet: unknown key 'leases' (did you mean 'lease'?)"),
        arguments("store: { kind: postgres, url: \"jdbc:postgresql://127.0.0.1/x\" }\nfleet: { lease: 50s }",
            "config: fleet.lease: must be at least twice limits.fetch_timeout (30s) for a fleet's requests to end"
                + " within their lease, got 50s"),
        // Ranges.
        arguments("limits: { max_depth: -1 }", "config: limits.max_depth: must be ≥ 0"),
        arguments("limits: { max_depth: 3000000000 }", "config: limits.max_depth: must be ≤ 2147483647"),
        arguments("limits: { max_retries: -1 }", "config: limits.max_retries: must be ≥ 0"),
        arguments("limits: { max_url_length: 0 }", "config: limits.max_url_length: must be ≥ 1"),
        arguments("limits: { max_page_bytes: 0 }", "config: limits.max_page_bytes: must be > 0"),
        arguments("limits: { fetch_timeout: 0 }", "config: limits.fetch_timeout: must be > 0"),
        arguments("limits: { max_decompression_ratio: 0 }", "config: limits.max_decompression_ratio: must be ≥ 1"),
        arguments("limits: { max_urls_per_origin: 0 }", "config: limits.max_urls_per_origin: must be ≥ 1"),
        arguments("robots: { cache_ttl: 0s }", "config: robots.cache_ttl: must be > 0"),
        arguments("max_actions: -5", "config: max_actions: must be ≥ 0"),
        arguments("max_actions: 99999999999999999999", "config: max_actions: must be ≤ 9223372036854775807"),
        arguments("concurrency: 0", "config: concurrency: must be ≥ 1"),
        arguments("politeness: { response_time_factor: -0.5 }", "config: politeness.response_time_factor: must be ≥ 0"),
        arguments("politeness: { min_delay: 5s, max_delay: 2s }",
            "config: politeness: min_delay (5s) must be ≤ max_delay (2s)"),
        arguments("politeness: { min_delay: 3m }", "config: politeness: min_delay (3m) must be ≤ max_delay (2m)"),
        // user_agent.
        arguments("user_agent: \"(compatible; Bot)\"",
            "config: user_agent: must start with a product token (letters, digits, '-', '_') followed by '/' or a"
                + " space, like \"ForagerBot/1.0 (+https://example.org/bot.html)\""),
        arguments("user_agent: \"Forager.Bot/1.0\"",
            "config: user_agent: must start with a product token (letters, digits, '-', '_') followed by '/' or a"
                + " space, like \"ForagerBot/1.0 (+https://example.org/bot.html)\""),
        arguments("user_agent: \"Bot/1.0\\nX-Injected: 1\"", "config: user_agent: must be printable ASCII on one line"),
        arguments("user_agent: \"Robôt/1.0\"", "config: user_agent: must be printable ASCII on one line"),
        arguments("user_agent: \"  \"", "config: user_agent: must not be empty"),
        // Seeds.
        arguments("seeds: [ \"https://a.example/\", \"http://b.example/\", \"ftp://x\" ]",
            "config: seeds[2]: \"ftp://x\" is not an http(s) URL"),
        arguments("seeds: [ example.org ]", "config: seeds[0]: \"example.org\" is not an http(s) URL (a host name"
            + " alone: write http://example.org/)"),
        arguments("limits: { max_url_length: 25 }\nseeds: [ \"https://a.example/\", \"https://a.example/0123456789\" ]",
            "config: seeds[1]: \"https://a.example/0123456789\" is longer than limits.max_url_length (25): 28 chars"),
        arguments("store: { kind: postgres, url: \"jdbc:postgresql://127.0.0.1/x\" }\nlimits: { max_url_length: 4000 }",
            "config: limits.max_url_length: must be at most 2048 with store.kind postgres (an index entry of"
                + " PostgreSQL holds the URL whole), got 4000"),
        arguments("data_dir: \"\"", "config: data_dir: must not be empty"),
        // Rule lists.
        arguments("skip_extensions: [ pdf ]", "config: skip_extensions[0]: \"pdf\" must be a dot and a name, like \".pdf\""),
        arguments("skip_extensions: [ \".tar gz\" ]", "config: skip_extensions[0]: \".tar gz\" is not a file name extension"),
        arguments("do_not_crawl: [ { host: a.example }, { regex: \"(\" } ]",
            "config: do_not_crawl[1]: regex \"(\" is invalid: Unclosed group near index 1"),
        arguments("do_not_crawl: [ { host: a.example, prefix: \"https://a.example/x\" } ]",
            "config: do_not_crawl[0]: needs exactly one of host, domain, prefix, regex"),
        arguments("do_not_crawl: [ {} ]", "config: do_not_crawl[0]: needs exactly one of host, domain, prefix, regex"),
        // A '*' is a host character to the URL parser: such a rule was accepted and excluded nothing.
        arguments("do_not_crawl: [ { domain: \"*.example.org\" } ]", "config: do_not_crawl[0].domain: \"*.example.org\" has"
            + " a wildcard: write the domain alone, like {domain: \"example.org\"}, which covers every host under it"),
        arguments("do_not_crawl: [ { prefix: \"https://*.example.org/\" } ]", "config: do_not_crawl[0].prefix:"
            + " \"https://*.example.org/\" has a wildcard in its host, which would match no site: use a domain rule, like"
            + " {domain: \"example.org\"} (it covers every host under it), or a regex"),
        arguments("do_not_crawl: [ ads.example.org ]",
            "config: do_not_crawl[0]: must be a map (key: value), found \"ads.example.org\""),
        arguments("do_not_crawl: [ { host: \"https://ads.example.org/\" } ]",
            "config: do_not_crawl[0].host: \"https://ads.example.org/\" is not a host name (write it without scheme,"
                + " port or path, like \"ads.example.org\")"),
        arguments("do_not_crawl: [ { prefix: \"http://127.10.\" } ]",
            "config: do_not_crawl[0].prefix: \"http://127.10.\" names the host 127.0.0.10 (a prefix is read as a URL,"
                + " its host whole); to match hosts starting with 127.10 use a regex rule"),
        arguments("do_not_crawl: [ { prefix: example.org/private } ]",
            "config: do_not_crawl[0].prefix: \"example.org/private\" must start with http:// or https://"),
        arguments("do_not_crawl: { host: a.example }", "config: do_not_crawl: must be a list, found a map"),
        arguments("url_query_parameters: [ { allow: [ q ] } ]", "config: url_query_parameters[0].prefix: required"),
        arguments("url_query_parameters: [ { prefix: \"https://a.example/s\" } ]",
            "config: url_query_parameters[0].allow: required (a list of parameter names, may be empty)"),
        arguments("url_query_parameters: [ { prefix: \"https://a.example/s?q\", allow: [ q ] } ]",
            "config: url_query_parameters[0].prefix: \"https://a.example/s?q\" must not contain '?': it is matched"
                + " against the URL without its query"),
        arguments("url_query_parameters: [ { prefix: \"https://a.example/s\", allow: q } ]",
            "config: url_query_parameters[0].allow: must be a list, found \"q\""),
        arguments("url_query_parameters: [ { prefix: \"https://a.example/s\", allow: [ q, [ x ] ] } ]",
            "config: url_query_parameters[0].allow[1]: must be a string, found a list"),
        // The store.
        arguments("store: { kind: postgres }", "config: store.url: required when store.kind is postgres"),
        arguments("store: { kind: mysql }", "config: store.kind: \"mysql\" is not a store kind (use embedded or postgres)"),
        arguments("store: { url: \"jdbc:postgresql://db/crawl\" }",
            "config: store.url: only used when store.kind is postgres"),
        arguments("store: { kind: postgres, url: \"jdbc:postgresql://db/crawl\", memory: 1GiB }",
            "config: store.memory: only used when store.kind is embedded"),
        arguments("store: { memory: 16MiB }",
            "config: store.memory: must be at least 32MiB: RocksDB would spend the crawl compacting"),
        arguments("store: { memory: 1GB }",
            "config: store.memory: \"1GB\" has an unknown unit \"GB\" (use B, KiB, MiB or GiB; 1 KiB = 1024 B)"),
        arguments("store: { kind: postgres, url: \"postgres://db/crawl\" }",
            "config: store.url: \"postgres://db/crawl\" is not a PostgreSQL JDBC URL (jdbc:postgresql://host/database)"),
        // A store.url is shown without its secrets (issue 19 item 10).
        arguments("store: { kind: postgres, url: \"postgres://forager:s3cret@db/crawl?sslpassword=k3y\" }",
            "config: store.url: \"postgres://forager:***@db/crawl?sslpassword=***\" is not a PostgreSQL JDBC URL"
                + " (jdbc:postgresql://host/database)"),
        arguments("store: { kind: postgres, url: \"jdbc:postgresql://forager:s3cret@db/crawl\" }",
            "config: store.url: \"jdbc:postgresql://forager:***@db/crawl\": the PostgreSQL driver reads no"
                + " user:password@ in a JDBC URL; give ?user=NAME and the password in store.password_file,"
                + " FORAGER_STORE_PASSWORD or PGPASSWORD"),
        arguments("store: { kind: postgres, url: \"jdbc:postgresql://db/crawl?password=s3cret\", password_file: pw }",
            "config: store.password_file: store.url has a password parameter too; give the password one way"),
        arguments("store: { password_file: pw }", "config: store.password_file: only used when store.kind is postgres"),
        // The status server.
        arguments("status: { port: 70000 }", "config: status.port: must be ≤ 65535"),
        arguments("status: { port: -1 }", "config: status.port: must be ≥ 0"),
        arguments("status: { port: http }", "config: status.port: \"http\" is not a whole number"),
        arguments("status: { bind: \"my host\" }", "config: status.bind: \"my host\" is not an IP address or host name"),
        arguments("status: { allowed_hosts: [ \"crawler:8090\" ] }", "config: status.allowed_hosts[0]: "
            + "\"crawler:8090\" is not a host name or IP address (give it without scheme or port)"),
        arguments("status: { allowed_hosts: [ ok.example, \"http://x.example/\" ] }", "config: status.allowed_hosts[1]: "
            + "\"http://x.example/\" is not a host name or IP address (give it without scheme or port)"),
        arguments("status: { allowed_hosts: crawler }", "config: status.allowed_hosts: must be a list, found \"crawler\""),
        arguments("status: { prot: 8090 }", "config: status: unknown key 'prot' (did you mean 'port'?)"),
        // YAML itself, with the line.
        arguments("politeness:\n  min_delay: 1s\n  max_delay: 2s: 3s\n",
            "config: invalid YAML at line 3, column 16: mapping values are not allowed here"),
        arguments("seeds: [ \"https://a.example/\"\nmax_actions: 3\n",
            "config: invalid YAML at line 2, column 1: expected ',' or ']', but got <scalar>"),
        arguments("politeness:\n\tmin_delay: 1s\n",
            "config: invalid YAML at line 2, column 1: found character '\\t(TAB)' that cannot start any token."
                + " (Do not use \\t(TAB) for indentation)"),
        arguments("max_actions: 1\nconcurrency: 2\nmax_actions: 3\n",
            "config: invalid YAML at line 3, column 1: duplicate key 'max_actions'"),
        arguments("politeness: &p { min_delay: 1s }\nlimits: *p\n",
            "config: invalid YAML at line 2, column 9: aliases (*p) are not supported; write the value out"),
        arguments("max_actions: 1\n---\nmax_actions: 2\n",
            "config: invalid YAML at line 3, column 1: more than one document; put everything in one"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource
  void mistakesInTheFile(String yaml, String message) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), Overrides.none()));
    assertEquals(message, e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line");
  }

  @Test
  void aMissingFile() {
    Path file = dir.resolve("nowhere.yaml");
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), Overrides.none()));
    assertEquals("config: " + file + ": file not found", e.getMessage());
  }

  @Test
  void aFileThatIsNotUtf8() throws IOException {
    Path file = Files.write(dir.resolve("latin1.yaml"), new byte[] {'u', 's', 'e', 'r', '_', 'a', 'g', 'e', 'n',
        't', ':', ' ', 'B', (byte) 0xF4, 't', '\n'});
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), Overrides.none()));
    assertEquals("config: " + file + ": is not UTF-8 text", e.getMessage());
  }

  @Test
  void aSeedFlagThatIsNotAnHttpUrl() {
    Overrides flags = new Overrides(List.of("https://a.example/", "ftp://x"), Optional.empty(), Optional.empty(),
        Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--seed: \"ftp://x\" is not an http(s) URL", e.getMessage());
  }

  @Test
  void aMissingSeedsFile() {
    Path seeds = dir.resolve("seeds.txt");
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--seeds-file " + seeds + ": file not found", e.getMessage());
  }

  @Test
  void aSeedsFileLineThatIsNotAnHttpUrl() throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "# sites\nhttps://a.example/\n\nexample.org\n");
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--seeds-file " + seeds + ": line 4: \"example.org\" is not an http(s) URL (a host name alone:"
        + " write http://example.org/)", e.getMessage());
  }

  /** Every bad line is counted and the first five named: one run to fix them, not one a line. */
  @Test
  void aSeedsFileWithManyBadLinesNamesTheFirstAndCountsAll() throws IOException {
    StringBuilder lines = new StringBuilder("https://a.example/\n");
    for (int i = 1; i <= 7; i++) lines.append("ftp://bad").append(i).append(".example/\n");
    lines.append("https://b.example/ https://c.example/\n");
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), lines);
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--seeds-file " + seeds + ": 8 lines are not seeds (fix them, or # comments one out): line 2:"
        + " \"ftp://bad1.example/\" is not an http(s) URL; line 3: \"ftp://bad2.example/\" is not an http(s) URL;"
        + " line 4: \"ftp://bad3.example/\" is not an http(s) URL; line 5: \"ftp://bad4.example/\" is not an http(s)"
        + " URL; line 6: \"ftp://bad5.example/\" is not an http(s) URL; and 3 more", e.getMessage());
  }

  /** Two URLs on a line were read as one, the second a path of the first's with a %20 in it. */
  @Test
  void aSeedsFileLineWithTwoUrlsIsRefused() throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "https://a.example/\nhttps://b.example/ https://c.example/\n");
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--seeds-file " + seeds + ": line 2: \"https://b.example/ https://c.example/\" has a space inside: one"
        + " URL per line (a space in a URL is written %20)", e.getMessage());
  }

  @Test
  void seedsLongerThanTheLimitAreRefusedNamingTheFlagOrLine() throws IOException {
    String longUrl = "https://a.example/" + "x".repeat(3000);
    Overrides seedFlag = new Overrides(List.of(longUrl), Optional.empty(), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), seedFlag));
    assertEquals("--seed: \"" + longUrl.substring(0, 60) + "…\" is longer than limits.max_url_length (2048): 3018 chars",
        e.getMessage());

    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "https://a.example/\n" + longUrl + "\n");
    Overrides fileFlag = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), fileFlag));
    assertEquals("--seeds-file " + seeds + ": line 2: \"" + longUrl.substring(0, 60)
        + "…\" is longer than limits.max_url_length (2048): 3018 chars", e.getMessage());
  }

  @Test
  void aLongSeedIsCutBeforeACharacterOutsideTheBmpNotThroughIt() {
    String longUrl = "https://a.example/" + "x".repeat(41) + "\uD83D\uDE00".repeat(1500);
    Overrides seedFlag = new Overrides(List.of(longUrl), Optional.empty(), Optional.empty(), Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), seedFlag));
    assertTrue(e.getMessage().startsWith("--seed: \"" + longUrl.substring(0, 59) + "…\" is longer"), e.getMessage());
  }

  @Test
  void aSeedsFileWithAByteOrderMarkIsRead() throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "\uFEFFhttps://a.example/\nhttps://b.example/\n");
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());
    assertEquals(List.of("https://a.example/", "https://b.example/"), ConfigLoader.load(Optional.empty(), flags).seeds());
  }

  @Test
  void aNegativeMaxActionsFlag() {
    Overrides flags = new Overrides(List.of(), Optional.empty(), Optional.empty(), Optional.of(-1L));
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--max-actions: must be ≥ 0", e.getMessage());
  }

  @Test
  void aStatusPortFlagOutOfRange() {
    Overrides flags = new Overrides(List.of(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of(65536));
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.empty(), flags));
    assertEquals("--status-port: must be between 0 and 65535", e.getMessage());
  }

  @Test
  void theFileIsCheckedEvenWhenFlagsReplaceItsSeeds() throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), "seeds: [ \"ftp://x\" ]\n");
    Overrides flags = new Overrides(List.of("https://a.example/"), Optional.empty(), Optional.empty(),
        Optional.empty());
    var e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), flags));
    assertEquals("config: seeds[0]: \"ftp://x\" is not an http(s) URL", e.getMessage());
  }
}
