package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WARC file written with direct I/O: its bytes reach the file in whole regions, the rest waits in
 * the mapped tail, and a killed writer's tail is written into the file by the repair.
 */
class StagedDirectWritesTest {

  private static final int REGION = StagedDirectWrites.REGION_BYTES;

  @TempDir Path dir;

  /** Gzip members of random, poorly compressible text, one of them larger than a region. */
  private static List<byte[]> members(long seed, int count) throws IOException {
    Random random = new Random(seed);
    List<byte[]> members = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int size = i == count / 2 ? REGION + REGION / 2 : 1 + random.nextInt(60_000);
      byte[] text = new byte[size];
      for (int k = 0; k < size; k++) text[k] = (byte) ('a' + random.nextInt(26));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
        gzip.write(text);
      }
      members.add(out.toByteArray());
    }
    return members;
  }

  private static void append(WarcFile file, byte[] member) throws IOException {
    try (Compressed compressed = Compressed.of(member)) {
      file.append(List.of(new WarcFile.Member(compressed, Optional.empty())));
    }
  }

  private static byte[] concatenation(List<byte[]> members) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    members.forEach(all::writeBytes);
    return all.toByteArray();
  }

  private static int inflatedBytes(Path file) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      return in.readAllBytes().length;
    }
  }

  @Test
  void aFinishedFileHoldsEveryByteAppendedAndNoTail() throws Exception {
    List<byte[]> members = members(1, 120);
    WarcFile file = WarcFile.create(dir, "a.warc.gz", Optional.empty(), true, 1L << 30);
    Path tail = StagedDirectWrites.tailOf(file.openPath());
    assertTrue(Files.exists(tail), "this file system takes direct writes: the tail is staged beside the file");
    for (byte[] member : members) append(file, member);
    byte[] expected = concatenation(members);
    assertTrue(expected.length > 3 * REGION, "several regions written: " + expected.length);
    assertEquals(expected.length, file.size());
    assertEquals((long) (expected.length / REGION) * REGION, Files.size(file.openPath()),
        "only whole regions reach the file before it is finished");

    Path finished = file.finish();

    assertArrayEquals(expected, Files.readAllBytes(finished));
    assertFalse(Files.exists(tail));
  }

  @Test
  void aKilledWritersStagedBytesAreWrittenIntoTheFileByTheRepair() throws Exception {
    List<byte[]> members = members(2, 100);
    WarcFile file = WarcFile.create(dir, "b.warc.gz", Optional.empty(), true, 1L << 30);
    for (byte[] member : members) append(file, member);
    // What a kill leaves: the channel closed by the kernel, the tail's pages in the page cache.
    file.abandon();
    byte[] expected = concatenation(members);
    assertTrue(Files.size(file.openPath()) < expected.length, "part of the records only in the tail");

    List<WarcRepair.Repaired> repaired = WarcRepair.repair(dir);

    assertEquals(List.of(new WarcRepair.Repaired(dir.resolve("b.warc.gz"), expected.length, 0)), repaired);
    assertArrayEquals(expected, Files.readAllBytes(dir.resolve("b.warc.gz")));
    assertFalse(Files.exists(StagedDirectWrites.tailOf(file.openPath())));
    assertTrue(inflatedBytes(dir.resolve("b.warc.gz")) > REGION);
  }

  @Test
  void aKillWithinTheFirstRegionLosesNothingAppended() throws Exception {
    List<byte[]> members = members(3, 6).subList(0, 2); // both small
    WarcFile file = WarcFile.create(dir, "c.warc.gz", Optional.empty(), true, 1L << 30);
    for (byte[] member : members) append(file, member);
    file.abandon();
    assertEquals(0, Files.size(file.openPath()), "nothing reached the file itself");

    WarcRepair.repair(dir);

    assertArrayEquals(concatenation(members), Files.readAllBytes(dir.resolve("c.warc.gz")));
  }

  @Test
  void aTailKilledBeforeItsFirstAppendIsDroppedAndTheEmptyFileRemoved() throws Exception {
    WarcFile file = WarcFile.create(dir, "d.warc.gz", Optional.empty(), true, 1L << 30);
    file.abandon();
    Path tail = StagedDirectWrites.tailOf(file.openPath());
    Files.write(tail, new byte[100]); // torn while it was being created: no magic number

    assertEquals(List.of(new WarcRepair.Repaired(dir.resolve("d.warc.gz"), 0, 0)), WarcRepair.repair(dir));
    assertFalse(Files.exists(tail));
    assertFalse(Files.exists(file.openPath()));
  }

  @Test
  void smallFilesRotateWithSmallTailsAndEveryFileIsWhole() throws Exception {
    Path warc = dir.resolve("warc");
    List<String> urls = new ArrayList<>();
    int tails = 0;
    try (WarcRecorder recorder = WarcRecorder.open(warc, 5_000, RecordCompression.defaults(), "Forager/test",
        dir.resolve("indexes"), true)) {
      for (int i = 0; i < 30; i++) {
        urls.add("http://example.org/" + i);
        recorder.write(Responses.plain(urls.get(i), ("page " + i + " ").repeat(200)));
        for (Path open : WarcFiles.list(warc, ".open")) { // none once a write filled its file
          long tail = Files.size(StagedDirectWrites.tailOf(open));
          assertTrue(tail <= 3 * 4096, "a tail about the file's size: " + tail);
          tails++;
        }
      }
    }

    assertTrue(tails > 5, "open files seen: " + tails);
    List<Path> files = WarcFiles.list(warc, ".warc.gz");
    assertTrue(files.size() > 3, "files: " + files);
    assertEquals(List.of(), WarcFiles.list(warc, ".open"));
    assertEquals(List.of(), WarcFiles.list(warc, ".tail"));
    List<String> written = new ArrayList<>();
    for (Path file : files) {
      for (WarcFiles.Read read : WarcFiles.read(file)) {
        if (read.record().type().equals("response")) written.add(WarcRecorderTest.target(read));
      }
    }
    assertEquals(urls, written);
  }

  /** The blocks a file system holds for {@code file} (reserved ones too), as {@code stat} counts them. */
  private static long allocatedBytes(Path file) throws Exception {
    Process stat = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
    String[] out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip().split(" ");
    assertEquals(0, stat.waitFor());
    return Long.parseLong(out[0]) * Long.parseLong(out[1]);
  }

  @Test
  void aFinishedFileEndingOnABlockKeepsNoSpaceReservedPastItsEnd() throws Exception {
    WarcFile file = WarcFile.create(dir, "f.warc.gz", Optional.empty(), true, 1L << 30);
    int block = (int) Files.getFileStore(dir).getBlockSize();
    append(file, new byte[block]);

    Path finished = file.finish();

    assertEquals(block, Files.size(finished));
    assertEquals(block, allocatedBytes(finished), "the megabyte reserved ahead released");
  }

  @Test
  void aRepairedFileKeepsNoSpaceReservedPastItsEnd() throws Exception {
    List<byte[]> members = members(5, 4).subList(0, 1);
    WarcFile file = WarcFile.create(dir, "g.warc.gz", Optional.empty(), true, 1L << 30);
    append(file, members.get(0));
    file.abandon();

    WarcRepair.repair(dir);

    long block = Files.getFileStore(dir).getBlockSize();
    Path repaired = dir.resolve("g.warc.gz");
    assertEquals(members.get(0).length, Files.size(repaired));
    assertEquals((members.get(0).length + block - 1) / block * block, allocatedBytes(repaired));
  }

  @Test
  void abandoningAFileWhoseFinishFailedClosesNoOtherFilesDescriptor() throws Exception {
    WarcFile file = WarcFile.create(dir, "h.warc.gz", Optional.empty(), true, 1L << 30);
    append(file, members(6, 2).get(0));
    Files.createFile(dir.resolve("h.warc.gz")); // the rename fails
    assertThrows(FileAlreadyExistsException.class, file::finish);
    List<FileChannel> others = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        others.add(FileChannel.open(dir.resolve("other" + i), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
      }
      file.abandon(); // what WarcRecorder does with a file it could not finish
      for (FileChannel other : others) other.write(ByteBuffer.wrap(new byte[] {1}), 0);
    } finally {
      for (FileChannel other : others) other.close();
    }
  }

  @Test
  void aFileWithoutAPracticalSizeLimitTakesAppends() throws Exception {
    WarcFile file = WarcFile.create(dir, "i.warc.gz", Optional.empty(), true, Long.MAX_VALUE);
    assertTrue(Files.exists(StagedDirectWrites.tailOf(file.openPath())));
    byte[] member = members(7, 2).get(0);
    append(file, member);
    assertArrayEquals(member, Files.readAllBytes(file.finish()));
  }

  @Test
  void withoutDirectIoTheFileIsWrittenThroughThePageCacheAsItGoes() throws Exception {
    List<byte[]> members = members(4, 10);
    WarcFile file = WarcFile.create(dir, "e.warc.gz", Optional.empty(), false, 1L << 30);
    for (byte[] member : members) append(file, member);
    assertFalse(Files.exists(StagedDirectWrites.tailOf(file.openPath())));
    assertArrayEquals(concatenation(members), Files.readAllBytes(file.openPath()));
    assertArrayEquals(concatenation(members), Files.readAllBytes(file.finish()));
  }
}
