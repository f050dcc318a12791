package org.forager.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.forager.warc.SortedLines;

/**
 * Merges sorted CDXJ files into one sorted CDXJ stream, line by line ({@link SortedLines}): memory
 * holds one line per file, however large the indexes. Lines compare as strings, the order each file
 * was sorted in. A server-not-modified revisit's line is written without its {@code status}
 * ({@link #forReplay}).
 */
final class IndexMerge {

  private static final int READ_BUFFER = 8192;

  private static final String REVISIT = ",\"mime\":\"warc/revisit\"";
  private static final String STATUS_304 = ",\"status\":\"304\"";

  private IndexMerge() {}

  /**
   * The line as the package's index holds it: a revisit's {@code "status":"304"} left out (pywb's
   * indexer gives no revisit a status), so that a replay serves the capture the 304 confirmed.
   * ReplayWeb.page (wabac.js 2.27) answers with a line's status and loads no body for a 304: the
   * page's frame got an empty 304, which Chromium aborts, and stayed blank whenever the revisit was
   * the page's latest capture. Without a status it reads the revisit, finds the earlier capture by
   * {@code WARC-Refers-To-Target-URI} and serves its body. The WARC files' own indexes keep the
   * status, line for line as warcio writes them. The field follows {@code mime} in every line
   * ({@code CdxjLines}); the URL before them is a JSON string, its quotes escaped, so it cannot hold
   * the text looked for. The merged order holds: two lines equal up to a revisit's {@code mime} are
   * both revisits of a 304 (Forager writes a revisit for nothing else) and lose the same field.
   */
  static String forReplay(String line) {
    int mime = line.indexOf(REVISIT + STATUS_304);
    if (mime < 0) return line;
    int status = mime + REVISIT.length();
    return line.substring(0, status) + line.substring(status + STATUS_304.length());
  }

  /** @return how many lines were written */
  static long merge(List<Path> indexes, OutputStream out) throws IOException {
    try (SortedLines lines = SortedLines.open(indexes, READ_BUFFER)) {
      Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      long count = 0;
      while (lines.hasNext()) {
        writer.write(forReplay(lines.next()));
        writer.write('\n');
        count++;
      }
      writer.flush();
      return count;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
