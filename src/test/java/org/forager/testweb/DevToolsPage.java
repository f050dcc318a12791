package org.forager.testweb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One tab of a headless Chromium driven over the DevTools protocol (a WebSocket on loopback, the
 * JDK's client; no WebDriver): navigate, evaluate JavaScript, click like a person does (mouse events
 * at the element's place, through the browser's input pipeline). For tests that must press a button.
 */
public final class DevToolsPage implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final Process process;
  private final WebSocket socket;
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private DevToolsPage(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /** Starts {@code binary} headless with a blank tab and connects to the tab. */
  public static DevToolsPage open(Path binary, Path workDir) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(workDir, "chromium-devtools");
    Process process = new ProcessBuilder(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1200,900",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
        "about:blank"))
        .redirectError(workDir.resolve("chromium-devtools-stderr.txt").toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      Path portFile = profile.resolve("DevToolsActivePort");
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
        if (System.nanoTime() > deadline || !process.isAlive()) throw new IOException("Chromium gave no DevTools port");
        Thread.sleep(20);
      }
      int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String pages = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
          .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString()).body();
      String target = null;
      for (JsonNode page : JSON.readTree(pages)) {
        if (page.path("type").asText().equals("page")) target = page.path("webSocketDebuggerUrl").asText();
      }
      if (target == null) throw new IOException("Chromium has no tab: " + pages);
      DevToolsPage[] self = new DevToolsPage[1];
      WebSocket socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
          .buildAsync(URI.create(target), new Listener(message -> {
            if (self[0] != null) self[0].answered(message);
          }))
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      self[0] = new DevToolsPage(process, socket);
      return self[0];
    } catch (IOException | InterruptedException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      process.destroyForcibly();
      throw new IOException("cannot connect to Chromium's tab", e);
    }
  }

  /** Collects a message's frames and hands each whole message on. */
  private static final class Listener implements WebSocket.Listener {
    private final java.util.function.Consumer<String> onMessage;
    private final StringBuilder partial = new StringBuilder();

    Listener(java.util.function.Consumer<String> onMessage) {
      this.onMessage = onMessage;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        onMessage.accept(partial.toString());
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }

  private void answered(String message) {
    try {
      JsonNode json = JSON.readTree(message);
      if (!json.has("id")) return; // an event
      CompletableFuture<JsonNode> call = pending.remove(json.get("id").asInt());
      if (call != null) call.complete(json);
    } catch (IOException e) {
      // not JSON: not an answer of ours
    }
  }

  /** Calls a DevTools method and returns its result. */
  public JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", params);
    socket.sendText(JSON.writeValueAsString(message), true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    JsonNode json = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    if (json.has("error")) throw new IllegalStateException(method + ": " + json.get("error"));
    return json.path("result");
  }

  public void navigate(URI page) throws Exception {
    call("Page.navigate", JSON.createObjectNode().put("url", page.toString()));
  }

  /** The value of a JavaScript expression in the page (a string, number or boolean), as text. */
  public String evaluate(String expression) throws Exception {
    JsonNode result = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
        .put("returnByValue", true)).path("result");
    return result.path("value").asText("");
  }

  /** Waits until a JavaScript expression is true in the page. */
  public void await(String expression, String what) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!evaluate("Boolean(" + expression + ")").equals("true")) {
      if (System.nanoTime() > deadline) throw new AssertionError("the page never showed " + what);
      Thread.sleep(50);
    }
  }

  /** Clicks the element {@code selector} names, with the mouse, at its middle. */
  public void click(String selector) throws Exception {
    String where = evaluate("(() => { const r = document.querySelector(" + JSON.writeValueAsString(selector)
        + ").getBoundingClientRect(); return (r.left + r.width / 2) + ',' + (r.top + r.height / 2); })()");
    String[] xy = where.split(",");
    for (String type : List.of("mousePressed", "mouseReleased")) {
      call("Input.dispatchMouseEvent", JSON.createObjectNode().put("type", type).put("x", Double.parseDouble(xy[0]))
          .put("y", Double.parseDouble(xy[1])).put("button", "left").put("clickCount", 1));
    }
  }

  @Override
  public void close() {
    socket.abort();
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
