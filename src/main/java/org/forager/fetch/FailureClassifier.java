package org.forager.fetch;

import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.forager.fetch.FetchResult.FailureKind;

/**
 * Names why a fetch got no response head: the one place that maps the fetcher's exceptions to
 * {@link FailureKind}s (a server that closed without a response is an I/O event, {@code NETWORK},
 * not bad HTTP). The cause chain is searched: the JDK's TLS wraps what it refused.
 * Stateless.
 */
final class FailureClassifier {

  static final String CERTIFICATE_NOT_TRUSTED = "certificate not trusted";
  static final String CERTIFICATE_EXPIRED = "certificate expired or not yet valid";
  static final String HOST_NAME_MISMATCH = "host name mismatch";

  private FailureClassifier() {}

  /**
   * @param deadlinePassed whether the fetch's deadline fired: then the failure is a timeout, whatever
   *     exception the abort happened to cause
   */
  static FailureKind classify(Throwable failure, boolean deadlinePassed) {
    if (deadlinePassed) return FailureKind.TIMEOUT;
    if (tlsProblem(failure).isPresent()) return FailureKind.TLS;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BlockedAddressException) return FailureKind.BLOCKED_BY_NETWORK_POLICY;
      if (t instanceof org.forager.dns.NoSuchHostException) return FailureKind.NO_SUCH_HOST;
      if (t instanceof UnknownHostException) return FailureKind.DNS;
      if (t instanceof SocketTimeoutException) return FailureKind.TIMEOUT;
      if (t instanceof HttpProtocolException) return FailureKind.PROTOCOL;
    }
    return FailureKind.NETWORK;
  }

  /**
   * A one-line message: the exception type and its message, after what was wrong with the server's
   * certificate when that was it ({@code certificate not trusted: SSLHandshakeException: PKIX ...}).
   */
  static String describe(Throwable failure) {
    String message = failure.getMessage();
    String type = failure.getClass().getSimpleName();
    String described = message == null || message.isBlank() ? type : type + ": " + message;
    return tlsProblem(failure).map(problem -> problem + ": " + described).orElse(described);
  }

  /**
   * What the TLS handshake refused about the server's certificate, if that is why it failed: the
   * JDK's trust manager (PKIX path building and validation, endpoint identification) reports
   * through these exception types; only a name mismatch has no type of its
   * own, and is known by the JDK's wording. Other handshake failures (a reset, no common cipher) are
   * not certificate problems.
   */
  static Optional<String> tlsProblem(Throwable failure) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = failure; t != null && chain.size() < 32; t = t.getCause()) chain.add(t);
    if (chain.stream().anyMatch(t -> t instanceof SSLPeerUnverifiedException)) return Optional.of(HOST_NAME_MISMATCH);
    if (chain.stream().noneMatch(t -> t instanceof SSLHandshakeException)) return Optional.empty();
    if (chain.stream().anyMatch(FailureClassifier::isExpiry)) return Optional.of(CERTIFICATE_EXPIRED);
    if (chain.stream().anyMatch(FailureClassifier::isNameMismatch)) return Optional.of(HOST_NAME_MISMATCH);
    boolean untrusted = chain.stream().anyMatch(t -> t instanceof CertificateException
        || t instanceof CertPathBuilderException || t instanceof CertPathValidatorException);
    return untrusted ? Optional.of(CERTIFICATE_NOT_TRUSTED) : Optional.empty();
  }

  private static boolean isExpiry(Throwable t) {
    return t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException
        || (t instanceof CertPathValidatorException v
            && (v.getReason() == BasicReason.EXPIRED || v.getReason() == BasicReason.NOT_YET_VALID));
  }

  /** The JDK's HostnameChecker: "No subject alternative DNS name matching ...", "No name matching ...". */
  private static boolean isNameMismatch(Throwable t) {
    String message = t.getMessage();
    return t.getClass() == CertificateException.class && message != null
        && (message.startsWith("No subject alternative") || message.startsWith("No name matching"));
  }
}
