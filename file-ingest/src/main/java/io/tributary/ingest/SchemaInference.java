package io.tributary.ingest;

import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.IngestLogReader;
import io.tributary.ingest.internal.format.InferredColumns;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;

/**
 * The schema of a file source whose spec gives none, as Spark's streaming schema inference
 * ({@code spark.sql.streaming.schemaInference}) and Auto Loader find it: the first files of the
 * input folder (in batch order, at most {@value #SAMPLE_FILES} files or {@value #SAMPLE_BYTES} bytes,
 * Auto Loader's sample) are read, and their columns typed as Spark's readers type them; schema
 * hints (Auto Loader's {@code cloudFiles.schemaHints}) then set the types of the columns they name
 * (and add those absent). The ingest records the schema with its first batch, so later runs read
 * with the same one ({@link #recorded}).
 */
public final class SchemaInference {
    /** The most files sampled. */
    public static final int SAMPLE_FILES = 1000;
    /** The most bytes sampled (50 GB). */
    public static final long SAMPLE_BYTES = 50L * 1000 * 1000 * 1000;

    private SchemaInference() {
    }

    /**
     * Infers the schema of {@code config}'s input ({@code config}'s own schema is a placeholder),
     * then applies {@code hints} (a DDL column list, or null).
     *
     * @throws TributaryException when the folder holds no file to infer from, or no column was found
     */
    public static Schema infer(IngestConfig config, String hints) {
        if (config.format().kind() == FileFormat.Kind.TEXT) {
            return withHints(FileFormat.textSchema(), hints);
        }
        if (config.format().kind() == FileFormat.Kind.DEBEZIUM_JSON) {
            throw IngestErrors.debeziumNeedsSchema(config.inputLocation());
        }
        FileDiscovery discovery = FileDiscovery.of(config);
        List<FileStat> sample = new ArrayList<>();
        long bytes = 0;
        for (FileStat f : discovery.list()) {
            if (sample.size() >= SAMPLE_FILES || (!sample.isEmpty() && bytes + f.size() > SAMPLE_BYTES)) {
                break;
            }
            sample.add(f);
            bytes += f.size();
        }
        if (sample.isEmpty()) {
            throw IngestErrors.nothingToInfer(config.inputLocation());
        }
        Map<String, DataType> columns;
        try {
            columns = InferredColumns.of(config, discovery, sample);
        } catch (IOException e) {
            throw IngestErrors.cannotInfer(e.getMessage(), e);
        }
        if (columns.isEmpty()) {
            throw IngestErrors.noColumnsToInfer(config.inputLocation());
        }
        List<Field> fields = new ArrayList<>();
        columns.forEach((k, v) -> fields.add(new Field(k, v, true)));
        return withHints(new Schema(fields), hints);
    }

    /** {@code schema} with the hinted columns' types (Auto Loader's schemaHints); hinted columns it lacks are added. */
    public static Schema withHints(Schema schema, String hints) {
        if (hints == null || hints.isBlank()) {
            return schema;
        }
        Schema h;
        try {
            h = Schema.parse(hints);
        } catch (TributaryException e) {
            throw IngestErrors.badSchemaHints(e.getMessage(), e);
        }
        List<Field> fields = new ArrayList<>(schema.fields());
        for (Field hint : h.fields()) {
            int i = schema.indexOf(hint.name());
            if (i >= 0) {
                fields.set(i, new Field(schema.field(i).name(), hint.type(), hint.nullable()));
            } else {
                fields.add(hint);
            }
        }
        return new Schema(fields);
    }

    /**
     * The schema the ingest recorded with its progress (inferred, or grown by schema evolution),
     * or null when there is none yet (a first run, or the spec's schema so far). Reads the
     * ingest-log topic when it exists; never waits for it.
     */
    public static Schema recorded(IngestConfig config, Map<String, Object> kafkaClientProps) {
        try (Admin admin = Admin.create(kafkaClientProps)) {
            if (!admin.listTopics().names().get().contains(config.ingestLogTopic())) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw IngestErrors.interruptedLookingForTopic(config.ingestLogTopic(), e);
        } catch (ExecutionException e) {
            throw IngestErrors.cannotListTopicsForSchema(e.getCause(), e);
        }
        String ddl = IngestLogReader.read(kafkaClientProps, config.ingestLogTopic()).schemaDdl();
        return ddl == null ? null : Schema.parseWithVariant(ddl);
    }
}
