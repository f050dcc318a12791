package org.forager.fetch;

import java.io.IOException;

/** A server's response that breaks HTTP/1.1 or a bound on it: a {@link FetchResult.FailureKind#PROTOCOL} failure. */
final class HttpProtocolException extends IOException {

  private static final long serialVersionUID = 1L;

  HttpProtocolException(String message) {
    super(message);
  }
}
