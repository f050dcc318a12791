package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** an Error thrown by one connection's write must not end the writer for every later head. */
@Timeout(30)
class SendBatchErrorTest {

  private static final Route ROUTE = new Route(false, "a.test", 80, "a.test", Optional.empty());

  /** A socket whose writes throw an Error (e.g. an OutOfMemoryError inside the socket stack). */
  private static final class ErrorSocket extends Socket {
    @Override
    public InputStream getInputStream() {
      return InputStream.nullInputStream();
    }

    @Override
    public OutputStream getOutputStream() {
      return new OutputStream() {
        @Override
        public void write(int b) {
          throw new OutOfMemoryError("simulated: direct buffer memory");
        }

        @Override
        public void write(byte[] b, int off, int len) {
          throw new OutOfMemoryError("simulated: direct buffer memory");
        }
      };
    }
  }

  @Test
  void aHeadQueuedAfterAWriteThatThrewAnErrorIsStillWritten() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        SendBatch batch = new SendBatch(TimeUnit.MILLISECONDS.toNanos(5))) {
      ErrorSocket bad = new ErrorSocket();
      batch.send(new Connection(ROUTE, bad, bad), "GET /bad HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));

      Socket socket = new Socket();
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
      try (Socket peer = server.accept()) {
        peer.setSoTimeout(5_000); // a bound on the wait, not a synchronisation
        byte[] head = "GET /good HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        batch.send(new Connection(ROUTE, socket, socket), head);
        // Fails with SocketTimeoutException: the writer thread died of the first connection's Error, and
        // every head queued from then on is never written (each fetch waits for its deadline).
        assertArrayEquals(head, peer.getInputStream().readNBytes(head.length));
      } finally {
        socket.close();
      }
    }
  }
}
