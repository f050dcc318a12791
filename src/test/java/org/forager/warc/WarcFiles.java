package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.netpreserve.jwarc.HttpRequest;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.Warcinfo;

/** Reading back what a recorder wrote, with jwarc, for tests. */
final class WarcFiles {

  private WarcFiles() {}

  /** Files in {@code dir} whose names end with {@code suffix}, sorted by name. */
  static List<Path> list(Path dir, String suffix) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One record read back. The record's headers stay usable; its body was parsed into the other
   * fields before the reader moved on.
   *
   * @param position offset of the record (of its gzip member) in the file
   * @param payload the HTTP body of a response record, empty for other records
   */
  record Read(
      WarcRecord record,
      long position,
      Optional<HttpRequest> request,
      Optional<HttpResponse> response,
      byte[] payload,
      Optional<MessageHeaders> warcinfoFields) {}

  /**
   * Every record of a file, in order. Fails on any jwarc warning, and on a record whose block does
   * not match its WARC-Block-Digest.
   */
  static List<Read> read(Path file) throws IOException {
    List<Read> out = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      reader.calculateBlockDigest();
      reader.onWarning(w -> {
        throw new AssertionError("jwarc warning in " + file + ": " + w);
      });
      for (WarcRecord r : reader) {
        out.add(readOne(r, reader.position()));
        assertEquals(r.blockDigest(), r.calculatedBlockDigest(), "block digest of " + r);
      }
    }
    return out;
  }

  static Read readOne(WarcRecord r, long position) throws IOException {
    Optional<HttpRequest> request = Optional.empty();
    Optional<HttpResponse> response = Optional.empty();
    byte[] payload = new byte[0];
    Optional<MessageHeaders> fields = Optional.empty();
    if (r instanceof WarcRequest req) {
      request = Optional.of(req.http());
    } else if (r instanceof WarcResponse resp) {
      response = Optional.of(resp.http());
      payload = resp.http().body().stream().readAllBytes();
    } else if (r instanceof WarcRevisit rev) {
      response = Optional.of(rev.http());
    } else if (r instanceof Warcinfo info) {
      fields = Optional.of(info.fields());
    }
    return new Read(r, position, request, response, payload, fields);
  }
}
