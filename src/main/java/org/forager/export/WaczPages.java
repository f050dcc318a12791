package org.forager.export;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * The {@code pages/pages.jsonl} of a WACZ: its header line, then one line per page, a page being a
 * capture of an HTML document ({@code text/html} or {@code application/xhtml+xml}) that answered
 * 200, with {@code id} (the response record's UUID), {@code url}, {@code ts} (its WARC-Date, RFC
 * 3339) and {@code title} when the document has one in its first 64 KiB. Pages come in crawl
 * order: by WARC file, then by offset. Not thread-safe.
 */
final class WaczPages {

  /** The first line of a pages file (WACZ 1.1.1, "pages.jsonl"). */
  static final String HEADER = "{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}";

  /** One page, as listed. */
  record Page(String id, String url, Instant ts, Optional<String> title) {}

  private static final Set<String> HTML = Set.of("text/html", "application/xhtml+xml");
  private static final int TITLE_BYTES = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = new JsonFactory();

  private final OutputStream out;
  private Optional<Page> first = Optional.empty();
  private long count;

  /** Starts the file on {@code out} with its header line. */
  WaczPages(OutputStream out) throws IOException {
    this.out = out;
    out.write((HEADER + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** Lists the pages of {@code warcFile}, found through its index. */
  void addFrom(Path warcFile, Path index) throws IOException {
    List<Long> offsets = new ArrayList<>();
    for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
      JsonNode fields = JSON.readTree(json(line));
      String mime = fields.path("mime").asText("").toLowerCase(Locale.ROOT);
      if (HTML.contains(mime) && fields.path("status").asText().equals("200")) {
        offsets.add(fields.path("offset").asLong());
      }
    }
    offsets.sort(null);
    for (long offset : offsets) {
      Optional<Page> page = read(warcFile, offset);
      if (page.isPresent()) write(page.get());
    }
  }

  /**
   * The JSON block of a CDXJ line: after the key and the timestamp, which hold no space (the key's
   * spaces are escaped) but may hold braces (a URL's decoded {@code %7B}).
   */
  static String json(String line) {
    int keyEnd = line.indexOf(' ');
    int timestampEnd = keyEnd < 0 ? -1 : line.indexOf(' ', keyEnd + 1);
    if (timestampEnd < 0) throw new IllegalArgumentException("not a CDXJ line: " + line);
    return line.substring(timestampEnd + 1);
  }

  /** The first page listed: the crawl's first page, usually its seed. */
  Optional<Page> first() {
    return first;
  }

  long count() {
    return count;
  }

  private void write(Page page) throws IOException {
    if (first.isEmpty()) first = Optional.of(page);
    count++;
    StringWriter line = new StringWriter();
    try (JsonGenerator json = FACTORY.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("id", page.id());
      json.writeStringField("url", page.url());
      json.writeStringField("ts", page.ts().toString());
      if (page.title().isPresent()) json.writeStringField("title", page.title().get());
      json.writeEndObject();
    }
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The page of the response at {@code offset}; empty if the record is not a response after all. */
  private static Optional<Page> read(Path warcFile, long offset) throws IOException {
    try (FileChannel channel = FileChannel.open(warcFile)) {
      channel.position(offset);
      try (WarcReader reader = new WarcReader(channel)) {
        Optional<WarcRecord> record = reader.next();
        if (record.isEmpty() || !(record.get() instanceof WarcResponse response)) return Optional.empty();
        String id = response.id().toString().replaceFirst("^urn:uuid:", "").replace("-", "");
        return Optional.of(new Page(id, response.target(), response.date(), title(response)));
      }
    }
  }

  /** The document's title, if its first bytes have a non-blank one; lenient: no title on any error. */
  private static Optional<String> title(WarcResponse response) {
    try {
      byte[] head = response.http().bodyDecoded().stream().readNBytes(TITLE_BYTES);
      String charset = response.http().headers().first("Content-Type")
          .map(type -> MediaType.parseLeniently(type).parameters().get("charset")).orElse(null);
      String title;
      try {
        title = Jsoup.parse(new ByteArrayInputStream(head), charset, response.target()).title();
      } catch (IllegalArgumentException badCharset) {
        // An unknown charset label in the header: let jsoup sniff the document instead.
        title = Jsoup.parse(new ByteArrayInputStream(head), null, response.target()).title();
      }
      return Optional.of(title.strip()).filter(t -> !t.isEmpty());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
