package org.forager.fetch;

import java.io.IOException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The client's request executor, noting in the exchange's context when it failed on a kept-alive
 * connection before any byte of a response came back: the signature of a server that closed the
 * connection (idle timeout, load) as it was being reused. Such a GET may be sent again on a new
 * connection (RFC 9110 section 9.2.2, RFC 9112 section 9.3.1); {@link HttpFetcher} does so once.
 *
 * <p>Reused means the connection had carried a request before this one; unanswered means the
 * connection received no byte since this exchange began. Both come from the connection's own
 * metrics. The executor closes the connection on failure, before the exception leaves it, so a
 * second attempt never overlaps the first. Stateless and thread-safe.
 */
final class StaleConnectionDetector extends HttpRequestExecutor {

  private static final String ATTRIBUTE = "org.forager.fetch.failed-unanswered-on-reused-connection";
  private static final String IDLE_TIMEOUT = "org.forager.fetch.408-on-reused-connection";

  @Override
  public ClassicHttpResponse execute(ClassicHttpRequest request, HttpClientConnection connection,
      HttpResponseInformationCallback informationCallback, HttpContext context)
      throws IOException, HttpException {
    EndpointDetails endpoint = connection.getEndpointDetails();
    long requestsBefore = endpoint == null ? 0 : endpoint.getRequestCount();
    long receivedBefore = endpoint == null ? 0 : endpoint.getReceivedBytesCount();
    try {
      ClassicHttpResponse response = super.execute(request, connection, informationCallback, context);
      // A 408 on a kept-alive connection is the server timing out the idle connection, not an answer
      // to this request (it may even have been sent before the request arrived).
      if (requestsBefore > 0 && response.getCode() == 408) context.setAttribute(IDLE_TIMEOUT, Boolean.TRUE);
      return response;
    } catch (IOException e) {
      if (requestsBefore > 0 && endpoint.getReceivedBytesCount() == receivedBefore) {
        context.setAttribute(ATTRIBUTE, Boolean.TRUE);
      }
      throw e;
    }
  }

  /** Whether the exchange of {@code context} was answered 408 on a reused connection. */
  static boolean timedOutIdleOnReusedConnection(HttpContext context) {
    return Boolean.TRUE.equals(context.getAttribute(IDLE_TIMEOUT));
  }

  /** Whether the exchange of {@code context} failed unanswered on a reused connection. */
  static boolean failedUnansweredOnReusedConnection(HttpContext context) {
    return Boolean.TRUE.equals(context.getAttribute(ATTRIBUTE));
  }
}
