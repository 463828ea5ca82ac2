package io.tributary.sink;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import io.tributary.sink.internal.SchemaMerge;
import io.tributary.sink.internal.SinkTableFeatures;
import io.tributary.sink.internal.TableErrors;
import io.tributary.sink.internal.TableSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The schema a sink writes an existing table with: the table's, grown by the pipeline's new columns with {@code mergeSchema}. */
final class SinkTableSchema {
    private static final Logger LOG = LoggerFactory.getLogger(SinkTableSchema.class);

    private SinkTableSchema() {
    }

    /**
     * The config with the schema the existing table is written with ({@link SchemaMerge}): the
     * table's columns, and the pipeline's new ones with {@code mergeSchema}. Unchanged without a table.
     * A table the sink cannot write in its mode is refused ({@link SinkTableFeatures#checkWritable}).
     */
    static SinkConfig withTableSchema(SinkConfig config, Engine engine) {
        String path = KernelEngines.tablePath(config.tablePath());
        Optional<Snapshot> snap = TableSnapshots.latest(engine, path);
        SinkTableFeatures.checkWritable(path, snap.map(Snapshot::getTableProperties).orElse(config.tableProperties()), config.mode(),
                snap.map(s -> !s.getPartitionColumnNames().isEmpty()).orElse(!config.partitionBy().isEmpty()));
        if (snap.isEmpty()) {
            return config;
        }
        Partitioning partitioning = Partitioning.parse(config.partitionBy(), config.tableSchema());
        Schema table = KernelSchemas.fromKernel(path, snap.get().getSchema());
        SchemaMerge.Result merged = SchemaMerge.merge(path, table, partitioning.tableSchema(), config.mergeSchema(),
                DeltaTableWriter.typeWidening(snap.get()));
        if (merged.schema().equals(partitioning.tableSchema())) {
            return config;
        }
        if (partitioning.hasDerivedColumns()) {
            throw TableErrors.derivedPartitionSchemaChanged(path, table.toDdl(), partitioning.tableSchema().toDdl(), config.partitionBy());
        }
        if (merged.changesTable()) {
            LOG.info("delta sink {}: table {} gains {}{} with the sink's first commit (sink.delta.mergeSchema)", config.appId(), path,
                    merged.added().isEmpty() ? "" : "columns " + merged.added(),
                    merged.widened().isEmpty() ? "" : (merged.added().isEmpty() ? "" : " and ") + "widenings " + merged.widened());
        }
        List<Field> fields = new ArrayList<>(merged.schema().fields());
        config.schema().fields().stream().filter(f -> config.changes().exceptColumns().contains(f.name())).forEach(fields::add);
        return config.toBuilder().schema(new Schema(fields)).build();
    }
}
