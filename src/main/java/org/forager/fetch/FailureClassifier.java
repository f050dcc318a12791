package org.forager.fetch;

import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.ClientProtocolException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.forager.fetch.FetchResult.FailureKind;

/**
 * Names why a fetch got no response head: the one place that maps the HTTP client's exceptions to
 * {@link FailureKind}s. The cause chain is searched because the client wraps protocol errors.
 * Stateless.
 */
final class FailureClassifier {

  private FailureClassifier() {}

  /**
   * @param deadlinePassed whether the fetch's deadline fired: then the failure is a timeout, whatever
   *     exception the abort happened to cause
   */
  static FailureKind classify(Throwable failure, boolean deadlinePassed) {
    if (deadlinePassed) return FailureKind.TIMEOUT;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BlockedAddressException) return FailureKind.BLOCKED_BY_NETWORK_POLICY;
      if (t instanceof UnknownHostException) return FailureKind.DNS;
      if (t instanceof SocketTimeoutException || t instanceof ConnectTimeoutException) {
        return FailureKind.TIMEOUT;
      }
      // The server closed the connection without a response: an I/O event, not bad HTTP.
      if (t instanceof NoHttpResponseException) return FailureKind.NETWORK;
      if (t instanceof HttpException || t instanceof ClientProtocolException
          || t instanceof MessageConstraintException) {
        return FailureKind.PROTOCOL;
      }
    }
    return FailureKind.NETWORK;
  }

  /** A one-line message: the exception type and its message. */
  static String describe(Throwable failure) {
    String message = failure.getMessage();
    String type = failure.getClass().getSimpleName();
    return message == null || message.isBlank() ? type : type + ": " + message;
  }
}
