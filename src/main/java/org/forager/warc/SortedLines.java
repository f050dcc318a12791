package org.forager.warc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorted line files merged into one sorted sequence, line by line: memory holds one line (and a read
 * buffer) per file, however large the files. Lines compare as strings, the order each file was sorted
 * in; empty lines are skipped. The CDXJ index of a WARC file is merged from its runs
 * ({@link IndexLines}), and the export's index of a whole crawl from the files' indexes. Close it to
 * close the files. Not thread-safe.
 */
public final class SortedLines implements Iterator<String>, AutoCloseable {

  private record Head(String line, BufferedReader reader) {}

  private final List<BufferedReader> readers;
  private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.line().compareTo(b.line()));

  private SortedLines(List<BufferedReader> readers) throws IOException {
    this.readers = readers;
    for (BufferedReader reader : readers) advance(reader);
  }

  /**
   * The lines of {@code files} (UTF-8, each sorted), merged.
   *
   * @param bufferBytes each file's read buffer
   * @throws IOException if a file cannot be opened or read (those opened are closed)
   */
  public static SortedLines open(List<Path> files, int bufferBytes) throws IOException {
    List<BufferedReader> readers = new ArrayList<>(files.size());
    try {
      for (Path file : files) {
        readers.add(new BufferedReader(Files.newBufferedReader(file, StandardCharsets.UTF_8), bufferBytes));
      }
      return new SortedLines(readers);
    } catch (IOException | RuntimeException e) {
      closeAll(readers, e);
      throw e;
    }
  }

  private void advance(BufferedReader reader) throws IOException {
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (!line.isEmpty()) {
        heads.add(new Head(line, reader));
        return;
      }
    }
  }

  @Override
  public boolean hasNext() {
    return !heads.isEmpty();
  }

  /** @throws UncheckedIOException if the next line of the file this one came from cannot be read */
  @Override
  public String next() {
    Head head = heads.poll();
    if (head == null) throw new NoSuchElementException();
    try {
      advance(head.reader());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read a sorted line file: " + e, e);
    }
    return head.line();
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (BufferedReader reader : readers) {
      try {
        reader.close();
      } catch (IOException e) {
        if (first == null) first = e;
      }
    }
    if (first != null) throw first;
  }

  private static void closeAll(List<BufferedReader> readers, Exception cause) {
    for (BufferedReader reader : readers) {
      try {
        reader.close();
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
  }
}
