package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.forager.store.Concurrently;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ISA-L engine's gzip members: whole members that the JDK's gzip reader inflates back to the
 * record, member by member, at every level and size, framed as zlib's are, from many threads at
 * once. Skipped, with the reason, where the system has no libisal (.ci/run installs it).
 */
@Timeout(60)
class IsalGzipMembersTest {

  @BeforeAll
  static void needsIsal() {
    assumeTrue(Isal.unavailable().isEmpty(), () -> "skipped: " + Isal.unavailable().get());
  }

  @Test
  void manyRecordsOfEverySizeReadBackMemberByMemberAtEveryLevel() throws IOException {
    for (int level = Isal.MIN_LEVEL; level <= Isal.MAX_LEVEL; level++) {
      IsalGzipMembers codec = new IsalGzipMembers(level);
      List<byte[]> records = new ArrayList<>();
      // Empty, one byte, a page, incompressible (igzip falls back to stored blocks), past the kept
      // buffers' size (the slot's buffers grow, then are dropped), a page again.
      for (int round = 0; round < 5; round++) {
        records.add(new byte[0]);
        records.add(new byte[] {(byte) round});
        records.add(Members.html(30_000, round));
        records.add(Members.noise(1 << 20, round));
        records.add(Members.html(5 << 20, round));
        records.add(Members.html(30_000 + round, round));
      }
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      List<Integer> lengths = new ArrayList<>();
      for (byte[] record : records) {
        byte[] member = codec.compress(record);
        lengths.add(member.length);
        file.write(member);
      }
      // Member by member, as a reader seeking to a record's offset does.
      byte[] all = file.toByteArray();
      int at = 0;
      for (int i = 0; i < records.size(); i++) {
        byte[] member = java.util.Arrays.copyOfRange(all, at, at + lengths.get(i));
        assertArrayEquals(records.get(i), Members.inflate(member), "level " + level + ", record " + i);
        at += lengths.get(i);
      }
      assertEquals(all.length, at);
      // And the whole file as one multi-member stream, as gzip -d reads it.
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      for (byte[] record : records) expected.write(record);
      assertArrayEquals(expected.toByteArray(), Members.inflate(all), "level " + level + ", the whole file");
    }
  }

  @Test
  void anIncompressibleRecordCostsNoMoreThanItsStoredBlocks() {
    byte[] record = Members.noise(1 << 20, 9);
    int member = new IsalGzipMembers(1).compress(record).length;
    assertTrue(member <= Isal.bound(record.length), member + " > " + Isal.bound(record.length));
  }

  @Test
  void itsFramingIsZlibsByteForByte() throws IOException {
    byte[] record = Members.html(30_000, 7);
    byte[] zlib = new GzipMembers(1).compress(record);
    for (int level = Isal.MIN_LEVEL; level <= Isal.MAX_LEVEL; level++) {
      byte[] isal = new IsalGzipMembers(level).compress(record);
      for (int i = 0; i < GzipMembers.HEADER_LENGTH; i++) assertEquals(zlib[i], isal[i], "header byte " + i);
      for (int i = 1; i <= 8; i++) assertEquals(zlib[zlib.length - i], isal[isal.length - i], "trailer byte -" + i);
    }
  }

  @Test
  void threadsCompressingAtOnceEachGetTheirOwnRecordBack() throws Exception {
    IsalGzipMembers codec = new IsalGzipMembers(1);
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        long seed = t;
        done.add(threads.submit(() -> {
          for (int i = 0; i < 200; i++) {
            byte[] record = Members.html(1_000 + (int) (seed * 997 + i * 131) % 60_000, seed * 1_000 + i);
            assertArrayEquals(record, Members.inflate(codec.compress(record)));
          }
          return null;
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void outputsOfLargeMembersAreNotKeptForTheNext() throws Exception {
    IsalGzipMembers codec = new IsalGzipMembers(1);
    byte[] large = Members.html(1 << 20, 3);
    List<Compressed> held = new ArrayList<>();
    for (int i = 0; i < IsalGzipMembers.MAX_LENT_OUTPUTS; i++) held.add(codec.compressed(large, large.length));
    for (Compressed member : held) {
      assertArrayEquals(large, Members.inflate(member.toArray()));
      member.close();
    }
    assertEquals(0, codec.keptOutputBytes(), "a few multi-MB pages must not pin their outputs for good");
    byte[] page = Members.html(30_000, 4);
    held.clear();
    for (int i = 0; i < IsalGzipMembers.MAX_LENT_OUTPUTS; i++) held.add(codec.compressed(page, page.length));
    held.forEach(Compressed::close);
    long kept = codec.keptOutputBytes();
    assertTrue(kept > 0 && kept <= IsalGzipMembers.MAX_LENT_OUTPUTS * IsalGzipMembers.KEEP_OUTPUT_BYTES,
        "a page's outputs are kept, bounded: " + kept);
  }

  @Test
  void largeMembersOutAtOnceAreCopiedToTheHeapPastTheLentBytes() throws Exception {
    IsalGzipMembers codec = new IsalGzipMembers(1);
    byte[] large = Members.html(1 << 20, 6);
    List<Compressed> held = new ArrayList<>();
    for (int i = 0; i < 16; i++) held.add(codec.compressed(large, large.length));
    long direct = held.stream().filter(m -> m.bytes().isDirect()).count();
    assertTrue(direct > 0 && direct * (1 << 20) <= IsalGzipMembers.MAX_LENT_BYTES,
        "native outputs out at once stay within the lent bytes: " + direct);
    for (Compressed member : held) {
      assertArrayEquals(large, Members.inflate(member.toArray()));
      member.close();
    }
    try (Compressed again = codec.compressed(large, large.length)) {
      assertTrue(again.bytes().isDirect(), "the bytes given back are lent again");
    }
  }

  @Test
  void membersHandedOverInTheirNativeBuffersStayIntactUntilClosed() throws Exception {
    IsalGzipMembers codec = new IsalGzipMembers(1);
    Concurrently.run(8, seed -> {
      for (int round = 0; round < 20; round++) {
        // Each thread holds more members than the pool lends (the rest are copied to the heap),
        // one past the kept size, as a recorder holds members while it waits for the file's lock.
        List<byte[]> records = new ArrayList<>();
        List<Compressed> members = new ArrayList<>();
        for (int i = 0; i < IsalGzipMembers.MAX_LENT_OUTPUTS + 2; i++) {
          int size = i == 3 && round % 5 == 0 ? 5 << 20 : 100 + (int) (seed * 7919L + i * 613 + round) % 70_000;
          byte[] record = Members.html(size, seed * 100_000L + round * 100 + i);
          records.add(record);
          members.add(codec.compressed(record, record.length));
        }
        for (int i = 0; i < records.size(); i++) {
          assertArrayEquals(records.get(i), Members.inflate(members.get(i).toArray()));
          members.get(i).close();
          members.get(i).close(); // a second close gives nothing back twice
        }
      }
    });
    // Every output came back: as many as the bound are lent again (native), one more is a heap copy.
    byte[] record = Members.html(30_000, 5);
    List<Compressed> held = new ArrayList<>();
    for (int i = 0; i < IsalGzipMembers.MAX_LENT_OUTPUTS; i++) held.add(codec.compressed(record, record.length));
    assertTrue(held.stream().allMatch(m -> m.bytes().isDirect()), "an output was never given back");
    try (Compressed past = codec.compressed(record, record.length)) {
      assertTrue(!past.bytes().isDirect(), "past the bound, a heap copy");
      assertArrayEquals(record, Members.inflate(past.toArray()));
    }
    held.forEach(Compressed::close);
  }

  @Test
  void theDefaultEngineIsIsalAtLevelsOneToThreeWhereTheSystemHasIt() {
    assertEquals(RecordCompression.GzipEngine.ISAL, RecordCompression.defaults().effectiveEngine());
    assertTrue(RecordCompression.defaults().codec() instanceof IsalGzipMembers);
    assertEquals("gzip level 1 (ISA-L igzip level 0, Huffman tables fitted to the records)",
        RecordCompression.defaults().describe());
    assertTrue(RecordCompression.gzip(3).codec() instanceof IsalGzipMembers);
    assertTrue(RecordCompression.gzip(0).codec() instanceof GzipMembers, "level 0 stores");
    RecordCompression six = RecordCompression.gzip(6);
    RecordCompression.GzipEngine higher = RecordCompression.libdeflateUnavailable().isEmpty()
        ? RecordCompression.GzipEngine.LIBDEFLATE : RecordCompression.GzipEngine.ZLIB;
    assertEquals(higher, six.effectiveEngine(), "ISA-L has no level 6");
  }

  @Test
  void fastestIsIgzipsLevelZeroAndTheSummarySaysSo() {
    RecordCompression fastest = RecordCompression.gzip(RecordCompression.FASTEST);
    assertEquals(RecordCompression.GzipEngine.ISAL, fastest.effectiveEngine());
    assertEquals("gzip fastest (ISA-L igzip level 0)", fastest.describe());
    byte[] record = Members.html(30_000, 3);
    assertArrayEquals(new IsalGzipMembers(0).compress(record), fastest.codec().compress(record));
    assertEquals("gzip fastest (the JDK's zlib level 1)",
        RecordCompression.gzip(RecordCompression.FASTEST, RecordCompression.GzipEngine.ZLIB).describe());
    assertEquals("gzip level 0 (stored)", RecordCompression.gzip(0).describe(), "0 still stores");
  }

  @Test
  void isalHasNoLevelAboveThree() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordCompression.gzip(4, RecordCompression.GzipEngine.ISAL));
    assertEquals("ISA-L compresses at gzip levels 1 to 3 only: 4", e.getMessage());
  }
}
