package io.tributary.connect.internal;

import io.tributary.ingest.StaticTable;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.Storage;
import java.nio.file.Path;
import java.util.List;

/**
 * The static side of the file source connector's {@code join}: a Delta table read through the Delta sink's
 * {@link DeltaTables} (Delta Kernel), at a URI as written (s3a://...) or an absolute path, with the connector's
 * {@code storage.} settings. A worker has no spec folder, so a relative path is taken from the worker's
 * working folder, as any other path of a connector.
 */
public final class JoinTables implements StaticTable {
    private final String location;
    private final Storage storage;

    private JoinTables(String location, Storage storage) {
        this.location = location;
        this.storage = storage;
    }

    /** The opener of the connector's join tables. */
    public static StaticTable.Opener opener(Storage storage) {
        return written -> {
            String w = written.strip();
            return new JoinTables(Storage.scheme(w) != null ? w : Path.of(w).toAbsolutePath().normalize().toString(), storage);
        };
    }

    @Override
    public long version() {
        return DeltaTables.latestVersion(location, storage);
    }

    @Override
    public Schema schema() {
        return DeltaTables.schema(location, storage).orElseThrow(() -> ConnectErrors.noJoinTable(location));
    }

    @Override
    public List<Object[]> rows() {
        return DeltaTables.readRows(location, storage);
    }
}
