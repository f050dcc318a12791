package org.forager.warc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Finishes the WARC files a killed process left behind. A file still named {@code .open} may end
 * in a torn record; since every record is one gzip member (or one zstd frame in a
 * {@code .warc.zst.open} file), the file is cut after its last complete member (checked by the
 * member's CRC and length; a frame by its content checksum, {@link ZstdFrameScan}), then renamed
 * like any finished file (without a CDXJ index: {@link WarcIndexes#ensure} builds it). A file
 * with no complete member is deleted. A file written with direct I/O first gets the bytes its
 * writer had staged ({@link StagedDirectWrites#recover}).
 *
 * <p>Only call it while no other process writes into the directory (the crawl holds its data
 * directory's store lock when it does).
 */
public final class WarcRepair {

  private static final String OPEN_SUFFIX = ".open";
  private static final String ZSTD_OPEN_SUFFIX = RecordCompression.Format.ZSTD.suffix() + OPEN_SUFFIX;

  /** What was done to one file. */
  public record Repaired(Path file, long keptBytes, long cutBytes) {}

  private WarcRepair() {}

  public static List<Repaired> repair(Path warcDir) {
    List<Repaired> repaired = new ArrayList<>();
    if (!Files.isDirectory(warcDir)) return repaired;
    try (DirectoryStream<Path> open = Files.newDirectoryStream(warcDir, "*" + OPEN_SUFFIX)) {
      for (Path file : open) repaired.add(repairFile(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot repair WARC files in " + warcDir + ": " + e.getMessage(), e);
    }
    return repaired;
  }

  private static Repaired repairFile(Path file) throws IOException {
    StagedDirectWrites.recover(file); // the bytes a direct writer still held in its tail, in place first
    long size = Files.size(file);
    String name = file.getFileName().toString();
    long complete;
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      complete = name.endsWith(ZSTD_OPEN_SUFFIX) ? ZstdFrameScan.completeFramesLength(in) : GzipMemberScan.completeMembersLength(in);
    }
    Path finished = file.resolveSibling(name.substring(0, name.length() - OPEN_SUFFIX.length()));
    if (complete == 0) {
      Files.delete(file);
      return new Repaired(finished, 0, size);
    }
    if (complete < size) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(complete);
        channel.force(true);
      }
    }
    Files.move(file, finished, StandardCopyOption.ATOMIC_MOVE);
    return new Repaired(finished, complete, size - complete);
  }
}
