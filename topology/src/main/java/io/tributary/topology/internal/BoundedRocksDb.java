package io.tributary.topology.internal;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * RocksDB's native memory, bounded for every store of the process (Kafka Streams'
 * {@code rocksdb.config.setter}): one block cache shared by the stores, which also holds their
 * index and filter blocks and is charged with their memtables (a write-buffer manager), as Kafka
 * Streams' documentation shows for bounding memory. By default each store (one per task, so per
 * partition of the events topic) has a 50 MiB cache of its own and three 16 MiB memtables, and
 * its index and filter blocks stay outside any cache, growing with the windows or keys it holds.
 */
public final class BoundedRocksDb implements RocksDBConfigSetter {
    /** The bound: the block cache, the index and filter blocks and the memtables of every store. */
    public static final long MEMORY_BYTES = 64L << 20;
    /** The memtables' share of the bound. */
    private static final double WRITE_BUFFER_SHARE = 0.5;
    /** The cache's share kept for index and filter blocks, so data blocks do not push them out. */
    private static final double INDEX_FILTER_SHARE = 0.1;
    private static final int MEMTABLES = 2;

    private static final long WRITE_BUFFER_BYTES = (long) (MEMORY_BYTES * WRITE_BUFFER_SHARE);

    /** Shared by every store of the process (made when the first store opens: RocksDB's library is loaded by then). */
    private static Cache cache;
    private static WriteBufferManager writeBuffers;

    private static synchronized void makeShared() {
        if (cache == null) {
            cache = new LRUCache(MEMORY_BYTES, -1, false, INDEX_FILTER_SHARE);
            writeBuffers = new WriteBufferManager(WRITE_BUFFER_BYTES, cache);
        }
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        makeShared();
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(writeBuffers);
        options.setMaxWriteBufferNumber(MEMTABLES);
        options.setWriteBufferSize(WRITE_BUFFER_BYTES / MEMTABLES);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write-buffer manager are shared by every store: not closed with one
    }
}
