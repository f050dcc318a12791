package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.forager.config.CrawlConfig;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.DBOptions;
import org.rocksdb.HyperClockCache;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksObject;

/**
 * The RocksDB options of the crawl store and its column families, tuned so that memory stays
 * bounded however many URLs the store knows: index and filter blocks live in one bounded block
 * cache (partitioned, so only the hot partitions are resident), and memtables are capped in total.
 * Owns the native option objects; close it after the database. Not thread-safe.
 */
final class RocksTuning implements AutoCloseable {

  /** Column families in the order {@link #families()} lists them. */
  static final int META = 0;
  static final int URLS = 1;
  static final int DUE = 2;
  static final int HISTORY = 3;
  static final int DIGESTS = 4;

  private static final long MIB = 1024 * 1024;
  /** The default budget ({@code store.memory}): enough for crawls of 10^7 URLs; give more beyond. */
  static final long DEFAULT_MEMORY_BYTES = CrawlConfig.Store.DEFAULT_MEMORY_BYTES;
  /** Below this the memtables flush so often that compaction eats the crawl's CPU. */
  static final long MIN_MEMORY_BYTES = CrawlConfig.Store.MIN_MEMORY_BYTES;
  private static final double BLOOM_BITS_PER_KEY = 10;

  private final List<RocksObject> natives = new ArrayList<>();
  private final DBOptions dbOptions;
  private final List<ColumnFamilyDescriptor> families = new ArrayList<>();

  /**
   * @param memoryBytes RocksDB's native memory budget: half for the block cache (index, filter and
   *     data blocks), half for the memtables of all column families together
   */
  RocksTuning(long memoryBytes) {
    if (memoryBytes < MIN_MEMORY_BYTES) {
      throw new IllegalArgumentException("store memory below " + MIN_MEMORY_BYTES / MIB + " MiB: " + memoryBytes);
    }
    RocksNativeLibrary.load();
    long memtables = memoryBytes / 2;
    // A family's memtable may take a quarter of the total (the busy three of them fill at once);
    // the total cap flushes the largest first.
    long large = Math.min(64 * MIB, memtables / 4);
    long small = Math.min(16 * MIB, memtables / 8);
    // RocksDB's lock-free clock cache (its recommended block cache since 8.x; entry size estimated as
    // it goes): every URL lookup takes a few blocks from it, and the LRU cache's sharded mutexes and
    // list updates were a tenth of the lookups' CPU.
    Cache cache = own(new HyperClockCache(memoryBytes - memtables, 0, -1, false));
    dbOptions = own(new DBOptions())
        .setCreateIfMissing(true)
        .setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2)
        .setBytesPerSync(MIB)
        .setDbWriteBufferSize(memtables)
        // With several column families a quiet one pins old WAL files; this forces its flush.
        .setMaxTotalWalSize(2 * memtables)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(5)
        .setMaxLogFileSize(16 * MIB);
    families.add(family(RocksDB.DEFAULT_COLUMN_FAMILY, cache, false, small));
    // Only the URL table is read by point lookups (dedup); its Bloom filter makes a miss cheap.
    // The due index and the history are only range-scanned, so filters would be wasted memory.
    families.add(family(name("urls"), cache, true, large));
    families.add(family(name("due"), cache, false, large));
    families.add(family(name("history"), cache, false, large));
    // Exact-duplicate index: one point lookup per fetched page, mostly misses (new bodies).
    families.add(family(name("digests"), cache, true, small));
  }

  DBOptions dbOptions() {
    return dbOptions;
  }

  List<ColumnFamilyDescriptor> families() {
    return families;
  }

  private ColumnFamilyDescriptor family(byte[] name, Cache cache, boolean bloom, long writeBuffer) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        // Dedup reads one block per known URL: small blocks on the URL table cost less to
        // read and decompress; the scanned families keep larger ones, which compress better.
        .setBlockSize(bloom ? 4 * 1024 : 16 * 1024)
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinTopLevelIndexAndFilter(true)
        .setIndexType(IndexType.kTwoLevelIndexSearch)
        // Index entries prefix-compressed, 16 to a restart point (RocksDB's default is 1: every entry a
        // whole key). Adjacent URLs of a hostile site share a 2,000-byte prefix and a data block holds one
        // or two of them, so the index was as large as the data and its pinned top-level partitions grew
        // the cache past its share: peak RSS 702-853 MiB with three such sites, 423-433 MiB with this
        // (docs/robustness.md, "Link-heavy pages under a long base").
        .setIndexBlockRestartInterval(16)
        .setPartitionFilters(bloom);
    if (bloom) {
      table.setFilterPolicy(own(new BloomFilter(BLOOM_BITS_PER_KEY)));
      // Point lookups find their key in a data block through a small hash table, not a binary search
      // of its restart points. Blocks written before are still read (they carry no table).
      table.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash).setDataBlockHashTableUtilRatio(0.75);
    }
    ColumnFamilyOptions options = own(new ColumnFamilyOptions());
    if (bloom) {
      // A whole-key Bloom filter over the memtable too: most dedup lookups are misses.
      options.setMemtablePrefixBloomSizeRatio(0.05).setMemtableWholeKeyFiltering(true);
    }
    options
        .setTableFormatConfig(table)
        .setWriteBufferSize(writeBuffer)
        .setMaxWriteBufferNumber(2)
        .setLevelCompactionDynamicLevelBytes(true)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION);
    return new ColumnFamilyDescriptor(name, options);
  }

  private <T extends RocksObject> T own(T object) {
    natives.add(object);
    return object;
  }

  private static byte[] name(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    for (int i = natives.size() - 1; i >= 0; i--) natives.get(i).close();
  }
}
