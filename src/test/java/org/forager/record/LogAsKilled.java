package org.forager.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.forager.warc.StagedTail;

/**
 * A crawl log's live file as a {@code kill -9} at this moment would leave it, read without disturbing
 * the process writing it: the file's bytes, with what its tail states (lines handed over, perhaps not
 * in the file yet) put at their place, as the next {@link CrawlLog#open} would. For tests that check
 * that a line survives a kill once its hand-over returned.
 */
public final class LogAsKilled {

  private LogAsKilled() {}

  /** The bytes of the live file {@code live} after a kill now (empty when there is none). */
  public static byte[] bytes(Path live) {
    try {
      // The tail first: its state names a region only once every region before it is in the file.
      Optional<StagedTail.Staged> staged = StagedTail.read(live);
      byte[] file;
      try {
        file = Files.readAllBytes(live);
      } catch (NoSuchFileException e) {
        file = new byte[0];
      }
      if (staged.isEmpty()) return file;
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(file, 0, (int) staged.get().offset());
      ByteBuffer bytes = staged.get().bytes();
      out.write(bytes.array(), 0, bytes.limit());
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #bytes} as a string. */
  public static String text(Path live) {
    return new String(bytes(live), StandardCharsets.UTF_8);
  }

  /** {@link #bytes} as lines. */
  public static List<String> lines(Path live) {
    return text(live).lines().toList();
  }
}
