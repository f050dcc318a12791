package org.forager.export;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted CDXJ files into one sorted CDXJ stream, line by line: memory holds one line per
 * file, however large the indexes. Lines compare as strings, the order each file was sorted in.
 */
final class IndexMerge {

  private IndexMerge() {}

  /** @return how many lines were written */
  static long merge(List<Path> indexes, OutputStream out) throws IOException {
    List<BufferedReader> readers = new ArrayList<>();
    try {
      PriorityQueue<Head> heads = new PriorityQueue<>();
      for (Path index : indexes) {
        BufferedReader reader = Files.newBufferedReader(index, StandardCharsets.UTF_8);
        readers.add(reader);
        Head.next(reader).ifPresent(heads::add);
      }
      Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      long lines = 0;
      while (!heads.isEmpty()) {
        Head head = heads.poll();
        writer.write(head.line);
        writer.write('\n');
        lines++;
        Head.next(head.reader).ifPresent(heads::add);
      }
      writer.flush();
      return lines;
    } finally {
      for (BufferedReader reader : readers) reader.close();
    }
  }

  /** The next line of one file. */
  private record Head(String line, BufferedReader reader) implements Comparable<Head> {
    static java.util.Optional<Head> next(BufferedReader reader) throws IOException {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!line.isEmpty()) return java.util.Optional.of(new Head(line, reader));
      }
      return java.util.Optional.empty();
    }

    @Override
    public int compareTo(Head other) {
      return line.compareTo(other.line);
    }
  }
}
