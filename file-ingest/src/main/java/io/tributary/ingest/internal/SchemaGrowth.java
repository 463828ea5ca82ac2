package io.tributary.ingest.internal;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.ingest.internal.format.NewColumnsException;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How the ingest's schema grows under {@code schemaEvolution: addNewColumns}, and how a run takes up where the last left it. */
public final class SchemaGrowth {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaGrowth.class);

    private SchemaGrowth() {
    }

    /**
     * The config to go on with, given the schema the ingest log recorded ({@code recordedDdl}, or
     * null): the spec's columns as the spec writes them, then the columns earlier batches added.
     * {@code config} itself when nothing changes.
     */
    public static IngestConfig adoptRecorded(IngestConfig config, String recordedDdl) {
        if (recordedDdl == null || config.schemaEvolution() != SchemaEvolution.ADD_NEW_COLUMNS) {
            return config;
        }
        Schema recorded = Schema.parseWithVariant(recordedDdl);
        List<Field> fields = new ArrayList<>(config.specSchema().fields());
        for (Field f : recorded.fields()) {
            if (config.specSchema().indexOf(f.name()) < 0) {
                fields.add(f);
            }
        }
        Schema schema = new Schema(fields);
        return schema.equals(config.schema()) ? config : config.withSchema(schema);
    }

    /**
     * A record of batch {@code batchId} has fields the schema lacks ({@code found}); nothing of the
     * batch was published. The config whose schema has every new field of the batch's {@code files}
     * as a nullable column at the end, typed from the fields' values; the batch runs again with it,
     * and records it with its rows.
     */
    public static IngestConfig grow(IngestConfig config, FileDiscovery discovery, List<FileStat> files, NewColumnsException found,
                                    long batchId) {
        Map<String, DataType> columns;
        try {
            columns = FilePublisher.newColumns(config, discovery, files);
        } catch (IOException e) {
            throw IngestErrors.cannotReread(batchId, e.getMessage(), e);
        }
        if (columns.isEmpty()) {
            throw IngestErrors.newFieldsVanished(found.file(), found.line(), found.fields());
        }
        List<Field> fields = new ArrayList<>(config.schema().fields());
        columns.forEach((name, type) -> fields.add(new Field(name, type, true)));
        IngestConfig grown = config.withSchema(new Schema(fields));
        LOG.info("file {} line {}: new field '{}'; the schema grows by {} and batch {} runs again with {} (schemaEvolution addNewColumns)",
                found.file(), found.line(), found.fields().get(0), columns.keySet(), batchId, grown.schema().toDdl());
        return grown;
    }
}
