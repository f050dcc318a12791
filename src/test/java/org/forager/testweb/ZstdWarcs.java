package org.forager.testweb;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * Reads a {@code .warc.zst} file with jwarc one record at a time, each from the offset of its own
 * zstd frame, as a replay tool does from an index.
 *
 * <p>Why not iterate one {@code WarcReader} over the file: jwarc 0.33 and 0.34 read every record of
 * a zstd file and then never see its end (the reader's channel answers 0 bytes rather than end of
 * input, so {@code next()} after the last record spins). The frame offsets come from zstd-jni, not
 * from Forager's own code.
 */
public final class ZstdWarcs {

  /** What a test wants from one record, read while its body is still open. */
  public interface RecordCheck<T> {
    T apply(WarcRecord record, long offset) throws IOException;
  }

  private ZstdWarcs() {}

  /** The offset of every zstd frame in the file, in order. */
  public static List<Long> frameOffsets(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      List<Long> offsets = new ArrayList<>();
      for (int at = 0; at < bytes.length; ) {
        long size = Zstd.findFrameCompressedSize(bytes, at);
        if (Zstd.isError(size)) throw new AssertionError("not a zstd frame at " + at + " in " + file);
        offsets.add((long) at);
        at += (int) size;
      }
      return offsets;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code check} applied to every record, each read by a fresh jwarc reader at its frame's offset. */
  public static <T> List<T> eachRecord(Path file, RecordCheck<T> check) {
    List<T> out = new ArrayList<>();
    for (long offset : frameOffsets(file)) {
      try (FileChannel channel = FileChannel.open(file)) {
        channel.position(offset);
        WarcReader reader = new WarcReader(channel);
        reader.calculateBlockDigest();
        reader.onWarning(w -> {
          throw new AssertionError("jwarc warning in " + file + " at " + offset + ": " + w);
        });
        WarcRecord record = reader.next().orElseThrow(() -> new AssertionError("no record at " + offset));
        out.add(check.apply(record, offset));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }
}
