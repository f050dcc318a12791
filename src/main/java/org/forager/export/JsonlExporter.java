package org.forager.export;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.forager.dedup.NearDuplicateIndex;
import org.forager.fetch.Outcome;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlStore;
import org.forager.store.UrlRecord;
import org.forager.url.Origin;

/**
 * Writes every URL the store knows as one JSON object per line, with the fields of the export
 * contract in DESIGN.md. Streams: memory does not grow with the number of URLs, only with the pages
 * of the largest origin (the near-duplicate index, below).
 *
 * <p>Computed here rather than kept by the store (docs/freshness.md, "Duplicates"):
 * <ul>
 *   <li>{@code change_count}, {@code last_change}: from the URL's history ({@link Changes}), read only
 *       for a URL fetched more than once, so a crawl of new URLs costs no extra read;
 *   <li>{@code near_duplicate_of}: the first URL in export (URL) order of the same origin whose text
 *       simhash is within 3 bits. URL order keeps an origin's URLs together, so one
 *       {@link NearDuplicateIndex} per origin at a time suffices (about 150 bytes per page of the
 *       origin). Pages that are exact duplicates or name another canonical URL take no part.
 * </ul>
 */
public final class JsonlExporter {

  private JsonlExporter() {}

  /** @return how many URLs were written */
  public static long export(CrawlStore store, OutputStream out) {
    try {
      JsonGenerator json = new JsonFactory().createGenerator(out);
      json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      // One object per line: no separator between root values (Jackson's default is a space).
      json.setRootValueSeparator(null);
      long[] count = {0};
      NearDuplicates near = new NearDuplicates();
      store.forEachUrl(url -> {
        try {
          List<CrawlRecord> crawls = url.fetchCount() > 1 ? store.history(url.url()) : url.lastCrawl().stream().toList();
          Changes changes = url.fetchCount() > 1 ? Changes.of(crawls) : Changes.NONE;
          CurrentRepresentation current = CurrentRepresentation.of(crawls);
          write(json, url, changes, current, near.of(url, current));
          json.flush();
          out.write('\n');
          count[0]++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      json.close();
      out.flush();
      return count[0];
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the export: " + e.getMessage(), e);
    }
  }

  /** The state column: where the URL stands after its latest crawl action. */
  public static String state(UrlRecord url) {
    if (url.lastCrawl().isEmpty()) return "new";
    Outcome o = url.lastCrawl().get().outcome();
    return switch (o) {
      case FETCHED, NOT_MODIFIED, NON_CANONICAL, NOINDEX, TRUNCATED, DUPLICATE_CONTENT,
          UNSUPPORTED_CONTENT_TYPE -> "fetched";
      case REDIRECT -> "redirect";
      case BLOCKED_BY_ROBOTS_TXT, BLOCKED_URL_BY_LOCAL_POLICY, BLOCKED_BY_NETWORK_POLICY, OUT_OF_SCOPE -> "blocked";
      case HTTP_ERROR, RATE_LIMITED, NETWORK_ERROR, DNS_ERROR, TIMEOUT, INTERNAL_ERROR -> "failed";
    };
  }

  /** The near-duplicate index of the origin being exported. Not thread-safe. */
  private static final class NearDuplicates {
    private String origin = "";
    private NearDuplicateIndex index = new NearDuplicateIndex();

    Optional<String> of(UrlRecord url, CurrentRepresentation current) {
      Optional<CrawlRecord> last = current.body();
      if (last.isEmpty() || last.get().simhash().isEmpty()) return Optional.empty();
      Outcome outcome = last.get().outcome();
      if (outcome == Outcome.DUPLICATE_CONTENT || outcome == Outcome.NON_CANONICAL) return Optional.empty();
      String urlOrigin = Origin.ofUrl(url.url()).toString();
      if (!urlOrigin.equals(origin)) {
        origin = urlOrigin;
        index = new NearDuplicateIndex();
      }
      long simhash = last.get().simhash().getAsLong();
      Optional<String> near = index.nearest(simhash);
      index.add(url.url(), simhash);
      return near;
    }
  }

  private static void write(JsonGenerator json, UrlRecord url, Changes changes, CurrentRepresentation current,
      Optional<String> nearDuplicateOf) throws IOException {
    Optional<CrawlRecord> last = url.lastCrawl();
    // The body's fields come from the representation in force: after a 304, the crawl whose body it
    // confirmed; the action's own fields (outcome, status, time) from the latest crawl.
    Optional<CrawlRecord> body = last.isPresent() && last.get().httpStatus() == 304 ? current.body() : last;
    json.writeStartObject();
    json.writeStringField("url", url.url());
    json.writeStringField("origin", Origin.ofUrl(url.url()).toString());
    json.writeStringField("state", state(url));
    string(json, "last_outcome", last.map(c -> c.outcome().name()));
    if (last.isPresent() && last.get().httpStatus() > 0) json.writeNumberField("http_status", last.get().httpStatus());
    else json.writeNullField("http_status");
    string(json, "fetched_at", last.map(c -> c.fetchedAt().toString()));
    string(json, "content_type", body.flatMap(CrawlRecord::contentType));
    if (body.isPresent() && body.get().contentLength() >= 0) json.writeNumberField("content_length", body.get().contentLength());
    else json.writeNullField("content_length");
    string(json, "digest", body.flatMap(CrawlRecord::digest));
    string(json, "redirect_to", last.flatMap(CrawlRecord::redirectTo));
    string(json, "canonical", body.flatMap(CrawlRecord::canonical));
    json.writeBooleanField("noindex", body.map(CrawlRecord::noindex).orElse(false));
    json.writeBooleanField("nofollow", body.map(CrawlRecord::nofollow).orElse(false));
    string(json, "discovered_from", url.discoveredFrom());
    json.writeNumberField("depth", url.depth());
    json.writeNumberField("priority", Math.round(url.priority() * 10_000) / 10_000.0);
    json.writeNumberField("inlinks", url.inlinks());
    json.writeNumberField("hops", url.hops());
    json.writeStringField("next_fetch_at", url.nextFetchAt().toString());
    string(json, "etag", current.etag());
    string(json, "last_modified", current.lastModified());
    json.writeNumberField("fetch_count", url.fetchCount());
    string(json, "duplicate_of", body.flatMap(CrawlRecord::duplicateOf));
    string(json, "near_duplicate_of", nearDuplicateOf);
    json.writeNumberField("change_count", changes.count());
    string(json, "last_change", changes.last().map(Object::toString));
    json.writeEndObject();
  }

  private static void string(JsonGenerator json, String name, Optional<String> value) throws IOException {
    if (value.isPresent()) json.writeStringField(name, value.get());
    else json.writeNullField(name);
  }
}
