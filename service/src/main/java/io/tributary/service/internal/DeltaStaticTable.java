package io.tributary.service.internal;

import io.tributary.ingest.StaticTable;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.Storage;
import java.util.List;

/**
 * The static side of {@code transform.join}: a Delta table read through Delta Kernel ({@link DeltaTables}),
 * its location a URI as it is or a path resolved against the spec's folder.
 */
final class DeltaStaticTable implements StaticTable {
    private final String location;
    private final Storage storage;

    private DeltaStaticTable(String location, Storage storage) {
        this.location = location;
        this.storage = storage;
    }

    static StaticTable open(PipelineSpec spec, String written) {
        String w = written.strip();
        String location = Storage.scheme(w) != null ? w : spec.specFile().toAbsolutePath().getParent().resolve(w).normalize().toString();
        return new DeltaStaticTable(location, spec.storage());
    }

    @Override
    public long version() {
        return DeltaTables.latestVersion(location, storage);
    }

    @Override
    public Schema schema() {
        return DeltaTables.schema(location, storage).orElseThrow(() -> ServiceErrors.noJoinTable(location));
    }

    @Override
    public List<Object[]> rows() {
        return DeltaTables.readRows(location, storage);
    }
}
