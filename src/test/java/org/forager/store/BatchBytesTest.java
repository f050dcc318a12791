package org.forager.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A batch built in Java is byte for byte the batch RocksJava builds for the same puts and deletes
 * (the default column family and named ones, empty values, keys and values whose lengths take one,
 * two and three varint bytes), and a real store applies it: what was put is there, what was deleted
 * is not.
 */
class BatchBytesTest {

  @TempDir Path dir;

  @Test
  void aBatchIsWhatRocksJavaBuildsAndTheStoreAppliesIt() throws Exception {
    RocksDatabase rocks = RocksDatabase.open(dir.resolve("store"), RocksTuning.DEFAULT_MEMORY_BYTES);
    try {
      ColumnFamilyHandle[] families = {rocks.meta, rocks.urls, rocks.due, rocks.history, rocks.digests};
      Random random = new Random(7);
      Map<ColumnFamilyHandle, Map<String, byte[]>> expected = new IdentityHashMap<>();
      BatchBytes ours = new BatchBytes(rocks.families);
      try (WriteBatch theirs = new WriteBatch(); WriteOptions options = new WriteOptions()) {
        for (int i = 0; i < 300; i++) {
          ColumnFamilyHandle family = families[i % families.length];
          byte[] key = ("key-" + i + "-").repeat(1 + random.nextInt(i % 50 == 0 ? 3_000 : 20)).getBytes(UTF_8);
          byte[] value = new byte[i % 7 == 0 ? 0 : random.nextInt(i % 40 == 0 ? 20_000 : 200)];
          random.nextBytes(value);
          if (i % 5 == 3) {
            ours.delete(family, key);
            theirs.delete(family, key);
            expected.computeIfAbsent(family, f -> new HashMap<>()).put(new String(key, UTF_8), null);
          } else {
            ours.put(family, key, value);
            theirs.put(family, key, value);
            expected.computeIfAbsent(family, f -> new HashMap<>()).put(new String(key, UTF_8), value);
          }
        }
        assertEquals(300, ours.count());
        try (WriteBatch serialized = ours.toWriteBatch()) {
          assertArrayEquals(theirs.data(), serialized.data());
          assertEquals(theirs.count(), serialized.count());
          rocks.db.write(options, serialized);
        }
      }
      for (Map.Entry<ColumnFamilyHandle, Map<String, byte[]>> family : expected.entrySet()) {
        for (Map.Entry<String, byte[]> e : family.getValue().entrySet()) {
          assertArrayEquals(e.getValue(), rocks.db.get(family.getKey(), bytes(e.getKey())), e.getKey());
        }
      }
      BatchBytes second = new BatchBytes(rocks.families);
      second.put(rocks.urls, bytes("a"), bytes("1"));
      second.put(rocks.meta, bytes("b"), bytes("2"));
      second.delete(rocks.urls, bytes("a"));
      second.put(rocks.due, bytes("c"), new byte[0]);
      try (WriteBatch serialized = second.toWriteBatch(); WriteOptions options = new WriteOptions()) {
        rocks.db.write(options, serialized);
      }
      assertNull(rocks.db.get(rocks.urls, bytes("a")), "deleted after its put, in one batch");
      assertArrayEquals(bytes("2"), rocks.db.get(rocks.meta, bytes("b")));
      assertArrayEquals(new byte[0], rocks.db.get(rocks.due, bytes("c")));
    } finally {
      rocks.close();
    }
  }

  @Test
  void aClearedBatchIsANewOneAndTheBatchMadeBeforeKeepsItsEntries() throws Exception {
    RocksDatabase rocks = RocksDatabase.open(dir.resolve("store"), RocksTuning.DEFAULT_MEMORY_BYTES);
    try (WriteOptions options = new WriteOptions()) {
      BatchBytes reused = new BatchBytes(rocks.families);
      reused.put(rocks.urls, bytes("first"), new byte[10_000]);
      reused.delete(rocks.due, bytes("gone"));
      try (WriteBatch first = reused.toWriteBatch(); WriteBatch theirs = new WriteBatch()) {
        reused.clear().put(rocks.meta, bytes("second"), bytes("value"));
        assertEquals(1, reused.count());
        theirs.put(rocks.urls, bytes("first"), new byte[10_000]);
        theirs.delete(rocks.due, bytes("gone"));
        assertArrayEquals(theirs.data(), first.data(), "the first batch changed when the buffer was used again");
        rocks.db.write(options, first);
      }
      try (WriteBatch second = reused.toWriteBatch(); WriteBatch theirs = new WriteBatch()) {
        theirs.put(rocks.meta, bytes("second"), bytes("value"));
        assertArrayEquals(theirs.data(), second.data());
        rocks.db.write(options, second);
      }
      assertArrayEquals(new byte[10_000], rocks.db.get(rocks.urls, bytes("first")));
      assertArrayEquals(bytes("value"), rocks.db.get(rocks.meta, bytes("second")));
    } finally {
      rocks.close();
    }
  }

  @Test
  void aColumnFamilyOfAnotherDatabaseIsRefused() {
    RocksDatabase one = RocksDatabase.open(dir.resolve("one"), RocksTuning.DEFAULT_MEMORY_BYTES);
    RocksDatabase two = RocksDatabase.open(dir.resolve("two"), RocksTuning.DEFAULT_MEMORY_BYTES);
    try {
      BatchBytes batch = new BatchBytes(one.families);
      assertThrows(IllegalArgumentException.class, () -> batch.put(two.urls, bytes("a"), bytes("b")));
    } finally {
      one.close();
      two.close();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
