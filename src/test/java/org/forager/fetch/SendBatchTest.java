package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link SendBatch} on real loopback connections. */
@Timeout(30)
class SendBatchTest {

  private ServerSocket server;
  private final List<Socket> accepted = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : accepted) s.close();
    server.close();
  }

  private Connection open() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
    Socket peer = server.accept();
    peer.setSoTimeout(10_000);
    accepted.add(peer);
    return new Connection(new Route(false, "a.test", 80, "a.test", Optional.empty()), socket, socket);
  }

  private static byte[] head(int i) {
    return ("GET /" + i + " HTTP/1.1\r\nHost: a.test\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] readExactly(Socket peer, int n) throws IOException {
    InputStream in = peer.getInputStream();
    byte[] got = in.readNBytes(n);
    assertEquals(n, got.length, "the whole head arrived");
    return got;
  }

  @Test
  void headsQueuedTogetherAllArriveEachOnItsConnectionAfterTheWindow() throws IOException {
    long window = TimeUnit.MILLISECONDS.toNanos(50);
    try (SendBatch batch = new SendBatch(window)) {
      List<Connection> connections = new ArrayList<>();
      for (int i = 0; i < 5; i++) connections.add(open());
      long queuedAt = System.nanoTime();
      for (int i = 0; i < 5; i++) batch.send(connections.get(i), head(i));
      for (int i = 0; i < 5; i++) assertArrayEquals(head(i), readExactly(accepted.get(i), head(i).length));
      assertTrueAtLeast(System.nanoTime() - queuedAt, window, "the first head waited the window for others");
    }
  }

  private static void assertTrueAtLeast(long actual, long least, String message) {
    if (actual < least) throw new AssertionError(message + ": " + actual + " ns < " + least + " ns");
  }

  @Test
  void onlySmallHeadsOnPlainConnectionsAreBatched() throws IOException {
    Connection plain = open();
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
    accepted.add(server.accept());
    Connection tls = new Connection(new Route(true, "a.test", 443, "a.test", Optional.empty()), socket, socket);
    assertTrue(SendBatch.takes(plain, head(1)));
    assertFalse(SendBatch.takes(tls, head(1)), "a TLS write may wait for a handshake the server starts");
    assertFalse(SendBatch.takes(plain, new byte[SendBatch.MAX_HEAD_BYTES + 1]));
  }

  @Test
  void aHeadOnAClosedConnectionFailsItAloneAndTheOthersStillGo() throws IOException {
    try (SendBatch batch = new SendBatch(TimeUnit.MILLISECONDS.toNanos(5))) {
      Connection closed = open();
      Connection open = open();
      closed.close();
      batch.send(closed, head(1));
      batch.send(open, head(2));
      assertArrayEquals(head(2), readExactly(accepted.get(1), head(2).length));
      // Later heads go out too: the writer lives on.
      batch.send(open, head(3));
      assertArrayEquals(head(3), readExactly(accepted.get(1), head(3).length));
    }
  }

  @Test
  void aHeadStillQueuedAtCloseClosesItsConnectionAndLaterSendsFail() throws IOException {
    Connection connection = open();
    SendBatch batch = new SendBatch(TimeUnit.SECONDS.toNanos(20));
    batch.send(connection, head(1));
    batch.close();
    // Its connection was closed, not left waiting for an answer to a request never sent: the peer
    // sees the end of the stream with no byte of the head.
    assertEquals(-1, accepted.get(0).getInputStream().read());
    assertThrows(IOException.class, () -> batch.send(open(), head(2)));
  }
}
