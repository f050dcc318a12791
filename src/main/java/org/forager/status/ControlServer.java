package org.forager.status;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.forager.crawl.CrawlControl;
import org.forager.status.BoundedHttpServer.Reply;

/**
 * The control API alone ({@link ControlEndpoints}), on a free port of 127.0.0.1, for {@code forager
 * ctl}: a crawl serves it whether or not it serves a status page, so that an operator can always
 * stop, pause or block (docs/status.md, "Control"). Answers nothing else. Bounded as the status server
 * is; thread-safe.
 */
public final class ControlServer implements AutoCloseable {

  private final BoundedHttpServer server;

  private ControlServer(BoundedHttpServer server) {
    this.server = server;
  }

  /**
   * Starts serving {@code control} on 127.0.0.1, on a port the system picks.
   *
   * @throws IOException when no port can be listened on
   */
  public static ControlServer start(CrawlControl control, ControlToken token) throws IOException {
    String loopback = "127.0.0.1";
    ServerSocket listening = BoundedHttpServer.listen(new InetSocketAddress(InetAddress.getByName(loopback), 0));
    AllowedHosts hosts = AllowedHosts.of((InetSocketAddress) listening.getLocalSocketAddress(), loopback, List.of());
    ControlEndpoints endpoints = new ControlEndpoints(control, token, hosts);
    return new ControlServer(BoundedHttpServer.start(listening, BoundedHttpServer.Limits.DEFAULT, (request, body) -> {
      if (!hosts.allows(request.host())) {
        return Reply.text(request.host().isEmpty() ? 400 : 421, "this server answers only 127.0.0.1 and localhost");
      }
      if (!request.path().startsWith(ControlEndpoints.PREFIX)) return Reply.text(404, "not found");
      return endpoints.handle(request, body);
    }));
  }

  /** The API's base, e.g. {@code http://127.0.0.1:40123/}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + "/");
  }

  @Override
  public void close() {
    server.close();
  }
}
