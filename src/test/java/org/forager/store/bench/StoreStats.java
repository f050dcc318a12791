package org.forager.store.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * Prints what a closed store's tables are made of, per column family: keys, raw and stored
 * sizes, index and filter sizes (RocksDB's aggregated table properties). The figures behind the
 * 10^9-URL extrapolation in docs/benchmarks.md. Not a test:
 * {@code java -cp ... org.forager.store.bench.StoreStats DIR}.
 */
public final class StoreStats {

  private StoreStats() {}

  public static void main(String[] args) throws Exception {
    RocksDB.loadLibrary();
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (String name : List.of("default", "urls", "due", "history")) {
      families.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8)));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options = new DBOptions();
        RocksDB db = RocksDB.openReadOnly(options, args[0], families, handles)) {
      for (int i = 0; i < families.size(); i++) {
        ColumnFamilyHandle family = handles.get(i);
        System.out.println("== " + new String(families.get(i).getName(), StandardCharsets.UTF_8)
            + ": sst " + db.getProperty(family, "rocksdb.total-sst-files-size")
            + " bytes; levels: " + db.getProperty(family, "rocksdb.num-files-at-level0") + " files in L0");
        System.out.println(db.getProperty(family, "rocksdb.aggregated-table-properties"));
      }
      handles.forEach(ColumnFamilyHandle::close);
    }
  }
}
