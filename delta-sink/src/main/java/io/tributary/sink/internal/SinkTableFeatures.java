package io.tributary.sink.internal;

import io.tributary.delta.ColumnMapping;
import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Snapshot;
import io.delta.kernel.transaction.UpdateTableTransactionBuilder;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkMode;
import java.util.Map;

/**
 * The table features the sink needs of a table it did not create, and those it cannot write yet.
 * A table Spark created (with deletion vectors, v2 checkpoints, the change data feed, or none)
 * lacks the {@code domainMetadata} writer feature that holds the sink's offsets: the sink's first
 * commit adds it to the table's protocol, as Spark adds a feature when a write needs it. Column
 * mapping is written with physical names and field ids ({@code DataFileWriter}); removing rows from a table
 * with the change data feed or {@code delta.appendOnly}, and an upsert into a column-mapped table with the
 * change data feed, are refused when the sink starts, in one line. A table with v2 checkpoints gets no checkpoint
 * from the sink ({@link #kernelCheckpoints}).
 */
public final class SinkTableFeatures {
    /** The writer feature of the sink's offsets (domain metadata {@code tributary.sink}). */
    static final String DOMAIN_METADATA = "domainMetadata";
    /** The feature of tables whose checkpoints follow the V2 spec ({@code delta.checkpointPolicy=v2}). */
    static final String V2_CHECKPOINT = "v2Checkpoint";

    private SinkTableFeatures() {
    }

    /** {@code builder}, adding the {@code domainMetadata} writer feature to the protocol of {@code snapshot}'s table when it lacks it. */
    static UpdateTableTransactionBuilder withSinkFeatures(Snapshot snapshot, UpdateTableTransactionBuilder builder) {
        if (KernelInternals.writerFeatures(snapshot).contains(DOMAIN_METADATA)) {
            return builder;
        }
        return builder.withTablePropertiesAdded(Map.of("delta.feature." + DOMAIN_METADATA, "supported"));
    }

    /**
     * True when Kernel's checkpoint is one the table may have: not with the {@code v2Checkpoint}
     * feature, whose checkpoints carry a {@code checkpointMetadata} action that Kernel 4.4's classic
     * checkpoint lacks; nor with CHECK constraints or invariants, which Kernel's checkpoint refuses
     * (the sink checks them itself, {@link TableConstraints}; Spark checkpoints such a table when it writes it).
     */
    static boolean kernelCheckpoints(Snapshot snapshot) {
        return !KernelInternals.writerFeatures(snapshot).contains(V2_CHECKPOINT)
                && TableConstraints.texts(snapshot.getTableProperties(), snapshot.getSchema()).isEmpty();
    }

    /**
     * Refuses a table the sink cannot write in {@code mode}, given its properties (an existing table's,
     * or those the sink would create it with).
     *
     * @throws TributaryException naming the table, the property and what to do
     */
    public static void checkWritable(String tablePath, Map<String, String> properties, SinkMode mode) {
        checkWritable(tablePath, properties, mode, false);
    }

    /**
     * As above, for a table that is {@code partitioned} (or will be): the sink writes the change data feed of
     * unpartitioned tables only, so mode upsert is refused on a partitioned table with the feed on.
     */
    public static void checkWritable(String tablePath, Map<String, String> properties, SinkMode mode, boolean partitioned) {
        if (partitioned && mode == SinkMode.UPSERT && "true".equalsIgnoreCase(properties.get("delta.enableChangeDataFeed"))) {
            throw TableErrors.changeDataFeedPartitioned(tablePath);
        }
        if (ColumnMapping.isOn(properties) && mode == SinkMode.UPSERT
                && "true".equalsIgnoreCase(properties.get("delta.enableChangeDataFeed"))) {
            throw TableErrors.columnMappedChangeDataFeed(tablePath, ColumnMapping.mode(properties));
        }
        if (mode == SinkMode.APPEND) {
            return;
        }
        if (mode != SinkMode.UPSERT && "true".equalsIgnoreCase(properties.get("delta.enableChangeDataFeed"))) {
            throw TableErrors.changeDataFeedOn(tablePath, mode.specName());
        }
        if ("true".equalsIgnoreCase(properties.get("delta.appendOnly"))) {
            throw TableErrors.appendOnly(tablePath, mode.specName());
        }
    }
}
