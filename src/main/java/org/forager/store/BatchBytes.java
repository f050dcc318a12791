package org.forager.store;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.WriteBatch;

/**
 * A write batch built in Java in RocksDB's own serialized form ({@code db/write_batch.cc}: a 12-byte
 * header, the sequence number and the count, then per entry a tag byte, the column family's ID
 * unless it is the default one, and the key and value each after their length as a varint32),
 * handed to RocksDB at once ({@link #toWriteBatch}). A page's write is about 20 puts and deletes:
 * one call into RocksDB instead of one each, whose arguments RocksJava copied each time (issue 15).
 * Used by one thread.
 */
final class BatchBytes {

  // db/dbformat.h, ValueType.
  private static final byte DELETION = 0x0;
  private static final byte VALUE = 0x1;
  private static final byte COLUMN_FAMILY_DELETION = 0x4;
  private static final byte COLUMN_FAMILY_VALUE = 0x5;
  private static final int HEADER = 12;

  /** The IDs of a database's column families, read once (each {@code getID} is a native call). */
  static final class Families {
    private final Map<ColumnFamilyHandle, Integer> ids = new IdentityHashMap<>();

    Families(List<ColumnFamilyHandle> handles) {
      for (ColumnFamilyHandle handle : handles) ids.put(handle, handle.getID());
    }

    int id(ColumnFamilyHandle family) {
      Integer id = ids.get(family);
      if (id == null) throw new IllegalArgumentException("not a column family of this database");
      return id;
    }
  }

  /** A batch's first buffer; one used again ({@link #clear}) keeps what it grew to, up to {@link #KEPT}. */
  private static final int INITIAL = 4096;
  private static final int KEPT = 1 << 20;

  private final Families families;
  /** The header's 12 bytes (filled in by {@link #toWriteBatch}), then the entries. */
  private final ByteWriter out = new ByteWriter(INITIAL).writeBytes(new byte[HEADER]);
  private int count;

  BatchBytes(Families families) {
    this.families = families;
  }

  /**
   * Empties the batch to build another in the same buffer: the group commit builds one a group under
   * its lock, and a new one each time was a twentieth of what a crawl allocated (issue 15).
   */
  BatchBytes clear() {
    out.reset(INITIAL, KEPT).writeBytes(new byte[HEADER]);
    count = 0;
    return this;
  }

  /** Puts {@code value} at {@code key} in the column family. */
  void put(ColumnFamilyHandle family, byte[] key, byte[] value) {
    tag(family, VALUE, COLUMN_FAMILY_VALUE);
    // A length-prefixed slice: the length as a varint, then the bytes.
    out.writeByteArray(key).writeByteArray(value);
    count++;
  }

  /** Deletes {@code key} in the column family. */
  void delete(ColumnFamilyHandle family, byte[] key) {
    tag(family, DELETION, COLUMN_FAMILY_DELETION);
    out.writeByteArray(key);
    count++;
  }

  /** The batch's length serialized, in bytes. */
  int bytes() {
    return out.size();
  }

  /** How many puts and deletes the batch holds. */
  int count() {
    return count;
  }

  /** RocksDB's batch of these entries (sequence number 0: the write assigns it), to close after use. */
  WriteBatch toWriteBatch() {
    byte[] serialized = out.copy(); // never the buffer itself: a cleared batch writes in it again
    // Fixed-width little-endian: the sequence number (zero) in bytes 0-7, the count in 8-11.
    serialized[8] = (byte) count;
    serialized[9] = (byte) (count >>> 8);
    serialized[10] = (byte) (count >>> 16);
    serialized[11] = (byte) (count >>> 24);
    return new WriteBatch(serialized);
  }

  /** An entry's tag, with the family's ID unless it is the default family. */
  private void tag(ColumnFamilyHandle family, byte inDefault, byte inFamily) {
    int id = families.id(family);
    if (id == 0) {
      out.writeByte(inDefault);
    } else {
      out.writeByte(inFamily).writeVarLong(id);
    }
  }
}
