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
 * was sorted in.
 */
final class IndexMerge {

  private static final int READ_BUFFER = 8192;

  private IndexMerge() {}

  /** @return how many lines were written */
  static long merge(List<Path> indexes, OutputStream out) throws IOException {
    try (SortedLines lines = SortedLines.open(indexes, READ_BUFFER)) {
      Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      long count = 0;
      while (lines.hasNext()) {
        writer.write(lines.next());
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
