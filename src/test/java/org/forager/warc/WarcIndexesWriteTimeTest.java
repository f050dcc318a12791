package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.testweb.NodeTools;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcResource;
import org.netpreserve.jwarc.WarcWriter;

/**
 * The index lines a recorder makes from the values it writes a record with, against the lines read
 * back from the record (jwarc parsing its head): byte for byte, for heads a server can send but
 * the loopback test server cannot (odd Content-Type fields, statuses and reasons a parser refuses,
 * wide characters). And the read-back rules warcio follows for records Forager does not write.
 */
class WarcIndexesWriteTimeTest {

  @TempDir Path tmp;

  @Test
  void oddHeadsGiveTheSameLinesWhenWrittenAsWhenReadBack() throws IOException {
    for (RecordCompression compression : List.of(RecordCompression.gzip(1), RecordCompression.zstd(1))) {
      Path warc = tmp.resolve("warc-" + compression.format());
      Path indexes = tmp.resolve("indexes-" + compression.format());
      List<FetchResult.Response> responses = oddResponses();
      try (WarcRecorder recorder = WarcRecorder.open(warc, 6_000, compression, "Forager/test", indexes)) {
        responses.forEach(recorder::write);
      }
      List<Path> files = WarcFiles.list(warc, compression.format().suffix());
      assertTrue(files.size() > 1, "rotated: " + files);
      List<String> all = new ArrayList<>();
      for (Path file : files) {
        Path index = WarcIndexes.indexOf(indexes, file);
        String written = Files.readString(index);
        Files.delete(index);
        assertEquals(written, Files.readString(WarcIndexes.ensure(indexes, file)), "read back " + file);
        all.addAll(written.lines().toList());
      }
      // Every record has a line but the responses whose status line no reader parses.
      assertEquals(responses.size() - 3, all.size(), String.join("\n", all));
      assertLine(all, "/semicolon", "\"mime\":\"\",");
      assertLine(all, "/twice", "\"mime\":\"text/csv, text/plain\"");
      assertLine(all, "/colon-in-name", "\"mime\":\"x: text/evil\"");
      assertLine(all, "/revisit-control", "\"mime\":\"warc/revisit\",\"length\"");
    }
  }

  @Test
  void aResourceRecordIsIndexedWithItsOwnContentTypeAsWarcioDoes() throws Exception {
    Path file = Files.createDirectories(tmp.resolve("warc")).resolve("other-crawler.warc.gz");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        WarcWriter writer = new WarcWriter(channel, WarcCompression.GZIP)) {
      writer.write(new WarcResource.Builder(URI.create("http://example.org/notes.txt")).date(Responses.STARTED)
          .body(MediaType.parse("text/plain; charset=utf-8"), "notes".getBytes(UTF_8)).build());
      writer.write(new WarcMetadata.Builder().date(Responses.STARTED)
          .body(MediaType.parse("application/warc-fields"), "via: test\r\n".getBytes(UTF_8)).build());
    }
    Path index = WarcIndexes.ensure(tmp.resolve("indexes"), file);
    List<String> lines = Files.readAllLines(index);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("org,example)/notes.txt 20260301123456 {\"url\":\"http://example.org/notes.txt\","
        + "\"mime\":\"text/plain;charset=utf-8\",\"length\":"), lines.get(0)); // as jwarc wrote it

    var tools = NodeTools.find();
    Assumptions.assumeTrue(tools.isPresent(), NodeTools.notFound("compare a resource record's line with warcio's"));
    NodeTools.Result warcio = tools.get().runBin(Duration.ofSeconds(60), "warcio", "cdx-index", file.toString());
    assertEquals(0, warcio.exitCode(), warcio.stderr());
    assertEquals(warcio.stdout().lines().filter(l -> !l.isBlank()).sorted().toList(), lines);
  }

  /** Heads with every oddity the two ways of making a line must agree on; three have no line. */
  private static List<FetchResult.Response> oddResponses() {
    List<FetchResult.Response> r = new ArrayList<>();
    r.add(typed("/params", "text/html; charset=utf-8"));
    r.add(typed("/upper", "TEXT/HTML; Charset=UTF-8"));
    r.add(response("/lower-name", 200, "OK", List.of(new Header("content-type", " \tapplication/json \t"))));
    r.add(typed("/semicolon", "; charset=utf-8"));
    r.add(typed("/empty", ""));
    r.add(typed("/blank", " \t "));
    r.add(response("/untyped", 200, "OK", List.of()));
    r.add(response("/twice", 200, "OK", List.of(new Header("Content-Type", "text/csv \t"),
        new Header("X-Between", "1"), new Header("CONTENT-TYPE", "text/plain "))));
    r.add(response("/twice-first-empty", 200, "OK", List.of(new Header("Content-Type", ""),
        new Header("Content-Type", "text/plain"))));
    r.add(response("/colon-in-name", 200, "OK", List.of(new Header("Content-Type:x", "text/evil"))));
    r.add(response("/similar-name", 200, "OK", List.of(new Header("X-Content-Type", "text/evil"))));
    r.add(typed("/latin-1", "tëxt/plain"));
    r.add(typed("/wide", "text/html; title=€"));
    r.add(typed("/latin-1-in-wide-line", "téxt/html; title=€"));
    r.add(typed("/line-breaks", "text/html\r\nSet-Cookie: a=b"));
    r.add(typed("/control", "text/\u0001html"));
    r.add(response("/long-headers", 200, "OK", List.of(new Header("X-Filler", "y".repeat(3 * RecordHeads.HEAD_BYTES)),
        new Header("Content-Type", "text/plain"))));
    r.add(response("/status-99", 99, "Odd", List.of()));
    r.add(response("/status-999", 999, "Odd", List.of()));
    r.add(response("/no-reason", 200, "", List.of()));
    r.add(response("/tab-reason", 200, "O\tK", List.of()));
    r.add(response("/latin-1-reason", 200, "Ünïcödé", List.of()));
    r.add(response("/wide-reason", 200, "€", List.of()));
    r.add(response("/status-1000", 1000, "Odd", List.of())); // no line
    r.add(response("/control-reason", 200, "O\u0001K", List.of())); // no line
    r.add(response("/delete-reason", 200, "O\u007fK", List.of())); // no line
    r.add(response("/revisit", 304, "Not Modified", List.of(new Header("ETag", "\"v1\""))));
    r.add(response("/revisit-control", 304, "Not\u0001Modified", List.of())); // a line without status
    r.add(new FetchResult.Response("http://example.org/h2", Responses.STARTED, 1, new byte[0], Optional.empty(),
        "HTTP/2", 200, "", List.of(new Header("content-type", "text/html")), new byte[0], new byte[0], Optional.empty()));
    r.add(response("/q?b=2&a=1&%22quoted%22=%5C", 200, "OK", List.of()));
    r.add(response("/%C3%BC/\u00fc", 200, "OK", List.of()));
    return r;
  }

  private static FetchResult.Response typed(String path, String contentType) {
    return response(path, 200, "OK", List.of(new Header("Content-Type", contentType)));
  }

  private static FetchResult.Response response(String path, int status, String reason, List<Header> headers) {
    String url = "http://example.org" + path;
    byte[] body = ("body of " + path).getBytes(UTF_8);
    return new FetchResult.Response(url, Responses.STARTED, 1, Responses.requestHead(url), Optional.of("127.0.0.1"),
        "HTTP/1.1", status, reason, headers, status == 304 ? new byte[0] : body, body, Optional.empty());
  }

  private static void assertLine(List<String> lines, String path, String part) {
    assertTrue(lines.stream().anyMatch(l -> l.contains(path + "\",") && l.contains(part)),
        path + " with " + part + " in\n" + String.join("\n", lines));
  }
}
