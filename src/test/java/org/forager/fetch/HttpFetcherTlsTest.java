package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestCrawl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * https against a real server on loopback with a certificate made for the test by the JDK's keytool:
 * certificates and host names are verified unless {@code network.tls.verify} is false, and a refused
 * certificate is a {@link FailureKind#TLS} failure that says what was wrong with it.
 */
@Timeout(60)
class HttpFetcherTlsTest {

  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final HttpFetcher.Options OPTIONS =
      new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(5), 100, true, 16);

  @TempDir Path dir;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  private final AtomicInteger requests = new AtomicInteger();
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private HttpsServer server;
  private HttpFetcher fetcher;

  @AfterEach
  void stop() {
    if (fetcher != null) fetcher.close();
    if (server != null) server.stop(0);
    executor.close();
  }

  /**
   * A PKCS12 key store with one self-signed EC certificate for {@code san} (keytool's -ext syntax), or
   * with no subject alternative names at all when {@code san} is empty (its common name is {@code name}).
   */
  private Path keyStore(String name, String san) throws IOException, InterruptedException {
    Path file = dir.resolve(name + ".p12");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name));
    if (!san.isEmpty()) command.addAll(List.of("-ext", "san=" + san));
    command.addAll(List.of("-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
        "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)));
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!keytool.waitFor(30, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    return file;
  }

  /** Serves {@code secure} (as text/html, for the crawl) on 127.0.0.1 with the key store's certificate; returns the port. */
  private int serve(Path keyStore) throws IOException, GeneralSecurityException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      keys.load(in, PASSWORD);
    }
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keyManagers.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.setExecutor(executor);
    server.createContext("/", exchange -> {
      requests.incrementAndGet();
      byte[] body = "secure".getBytes(StandardCharsets.US_ASCII);
      exchange.getResponseHeaders().set("Content-Type", "text/html");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return server.getAddress().getPort();
  }

  private static Failure assertTlsFailure(FetchResult result, String problem) {
    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.TLS, failure.kind(), failure.message());
    assertTrue(failure.message().startsWith(problem + ": "), failure.message());
    return failure;
  }

  @Test
  void aSelfSignedCertificateIsRefusedAsNotTrusted() throws Exception {
    int port = serve(keyStore("localhost", "dns:localhost,ip:127.0.0.1"));
    fetcher = new HttpFetcher(OPTIONS);

    assertTlsFailure(fetcher.fetch(FetchRequest.of("https://localhost:" + port + "/")),
        FailureClassifier.CERTIFICATE_NOT_TRUSTED);
    assertEquals(0, requests.get(), "no request is sent over an unverified connection");
  }

  @Test
  void aSelfSignedCertificateIsFetchedWhenVerificationIsOffAndThatIsAnnounced() throws Exception {
    int port = serve(keyStore("other", "dns:other.test"));
    fetcher = new HttpFetcher(OPTIONS.withVerifyTls(false));

    Response response = assertInstanceOf(Response.class,
        fetcher.fetch(FetchRequest.of("https://localhost:" + port + "/")));

    assertEquals(200, response.status());
    assertEquals("secure", new String(response.body(), StandardCharsets.US_ASCII));
    assertTrue(console.err().contains("forager: network.tls.verify is false"), console.err());
  }

  /**
   * The JDK refuses a name with {@code _} as a Server Name Indication (letters, digits and hyphens
   * only), which browsers and DNS allow: such a host is reached without SNI, not failed.
   */
  @Test
  void aHostWithAnUnderscoreIsFetchedWithoutServerNameIndication() throws Exception {
    int port = serve(keyStore("other", "dns:other.test"));
    fetcher = new HttpFetcher(OPTIONS.withVerifyTls(false));

    FetchRequest request = toLoopback("https://my_site.test:" + port + "/");
    Response response = assertInstanceOf(Response.class, fetcher.fetch(request));

    assertEquals(200, response.status());
    assertEquals("secure", new String(response.body(), StandardCharsets.US_ASCII));
  }

  /**
   * The certificate is trusted here (the test's trust store), so what is left to refuse is the name:
   * a certificate for {@code other.test} served as {@code localhost}.
   */
  @Test
  void aTrustedCertificateForAnotherHostIsRefusedAsAHostNameMismatch() throws Exception {
    Path keyStore = keyStore("other", "dns:other.test");
    int port = serve(keyStore);
    fetcher = new HttpFetcher(OPTIONS);

    FetchResult result = withTrustStore(keyStore, () -> fetcher.fetch(FetchRequest.of("https://localhost:" + port + "/")));
    assertTlsFailure(result, FailureClassifier.HOST_NAME_MISMATCH);
    assertEquals(0, requests.get());
  }

  /**
   * The JDK's own name check refused every host with {@code _} ("Illegal given domain name") before
   * reading the certificate, so such an https site was never crawled with verification on, though
   * browsers accept it under a wildcard certificate. Checked by {@link CertificateHostNames} instead.
   */
  @Test
  void aHostWithAnUnderscoreIsFetchedUnderAMatchingWildcardCertificate() throws Exception {
    Path keyStore = keyStore("wildcard", "dns:*.example.test");
    int port = serve(keyStore);
    fetcher = new HttpFetcher(OPTIONS);

    FetchRequest request = toLoopback("https://a_b.example.test:" + port + "/");
    FetchResult result = withTrustStore(keyStore, () -> fetcher.fetch(request));
    Response response = assertInstanceOf(Response.class, result, result::toString);

    assertEquals(200, response.status());
    assertEquals("secure", new String(response.body(), StandardCharsets.US_ASCII));
  }

  /** The chain is still verified for such a host: a certificate nobody trusts is refused as before. */
  @Test
  void aHostWithAnUnderscoreUnderAnUntrustedCertificateIsRefusedAsNotTrusted() throws Exception {
    int port = serve(keyStore("wildcard", "dns:*.example.test"));
    fetcher = new HttpFetcher(OPTIONS);

    FetchRequest request = toLoopback("https://a_b.example.test:" + port + "/");
    assertTlsFailure(fetcher.fetch(request), FailureClassifier.CERTIFICATE_NOT_TRUSTED);
    assertEquals(0, requests.get());
  }

  /**
   * A trusted certificate that does not name an {@code _} host is refused as a certificate for
   * another host is: a wildcard covers one label only, and another name is another host.
   */
  @Test
  void aHostWithAnUnderscoreThatTheCertificateDoesNotNameIsRefusedAsAHostNameMismatch() throws Exception {
    Path keyStore = keyStore("other", "dns:other.test,dns:*.example.test");
    int port = serve(keyStore);
    fetcher = new HttpFetcher(OPTIONS);

    for (String host : List.of("a_b.other.test", "x.a_b.example.test")) {
      FetchRequest request = toLoopback("https://" + host + ":" + port + "/");
      assertTlsFailure(withTrustStore(keyStore, () -> fetcher.fetch(request)), FailureClassifier.HOST_NAME_MISMATCH);
    }
    assertEquals(0, requests.get(), "no request is sent over a connection to the wrong host");
  }

  /** Browsers do not read the common name; neither does the check of an {@code _} host. */
  @Test
  void aHostWithAnUnderscoreNamedOnlyInTheCommonNameIsRefusedAsAHostNameMismatch() throws Exception {
    Path keyStore = keyStore("a_b.example.test", "");
    int port = serve(keyStore);
    fetcher = new HttpFetcher(OPTIONS);

    FetchRequest request = toLoopback("https://a_b.example.test:" + port + "/");
    assertTlsFailure(withTrustStore(keyStore, () -> fetcher.fetch(request)), FailureClassifier.HOST_NAME_MISMATCH);
    assertEquals(0, requests.get());
  }

  @Test
  void aTrustedCertificateForTheHostIsFetched() throws Exception {
    Path keyStore = keyStore("localhost", "dns:localhost");
    int port = serve(keyStore);
    fetcher = new HttpFetcher(OPTIONS);

    Response response = assertInstanceOf(Response.class,
        withTrustStore(keyStore, () -> fetcher.fetch(FetchRequest.of("https://localhost:" + port + "/"))));
    assertEquals(200, response.status());
    assertEquals("", console.err(), "nothing to announce when certificates are verified");
  }

  /** Through a whole crawl: the crawl log says what was wrong; verify: false crawls the site. */
  @Test
  void theCrawlLogNamesTheCertificateProblemAndVerifyFalseCrawlsTheSite() throws Exception {
    int port = serve(keyStore("localhost", "dns:localhost,ip:127.0.0.1"));
    String seed = "https://localhost:" + port + "/";

    Path verified = dir.resolve("verified");
    TestCrawl.run(TestCrawl.config(verified, List.of(seed), "network: { allow_private_addresses: true }"));
    JsonNode robots = TestCrawl.log(verified).get(0);
    assertEquals(seed + "robots.txt", robots.get("url").asText());
    assertEquals("NETWORK_ERROR", robots.get("outcome").asText());
    assertTrue(robots.get("reason").asText().startsWith("tls: certificate not trusted: "), robots.toString());
    assertEquals(0, requests.get());

    Path insecure = dir.resolve("insecure");
    TestCrawl.run(TestCrawl.config(insecure, List.of(seed),
        "network: { allow_private_addresses: true, tls: { verify: false } }"));
    assertEquals("FETCHED", TestCrawl.lastOutcome(insecure, seed));
    assertTrue(console.err().contains("forager: network.tls.verify is false"), console.err());
  }

  /**
   * Runs {@code fetch} with the JDK's default trust store replaced by {@code trustStore}: the fetcher's
   * TLS context reads the javax.net.ssl properties when it is made, at its first https connection, so
   * they are set only for that moment.
   */
  private static FetchResult withTrustStore(Path trustStore, java.util.function.Supplier<FetchResult> fetch) {
    String[] keys = {"javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword", "javax.net.ssl.trustStoreType"};
    String[] saved = new String[keys.length];
    for (int i = 0; i < keys.length; i++) saved[i] = System.getProperty(keys[i]);
    try {
      System.setProperty(keys[0], trustStore.toString());
      System.setProperty(keys[1], new String(PASSWORD));
      System.setProperty(keys[2], "PKCS12");
      return fetch.get();
    } finally {
      for (int i = 0; i < keys.length; i++) {
        if (saved[i] == null) System.clearProperty(keys[i]);
        else System.setProperty(keys[i], saved[i]);
      }
    }
  }

  /** A request for {@code url} whose host is pinned to the loopback address. */
  private static FetchRequest toLoopback(String url) {
    return FetchRequest.of(url).connectingTo(Optional.of(InetAddress.getLoopbackAddress()));
  }

}
