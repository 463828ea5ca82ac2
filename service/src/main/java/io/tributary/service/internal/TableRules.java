package io.tributary.service.internal;

import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the sink's table asks of every row (a table Spark created with {@code NOT NULL} columns,
 * CHECK constraints or invariants), checked by a file source on the rows it parses, when they go to
 * the table as they are (no aggregation): a row with a null in a NOT NULL column, or one that
 * breaks a CHECK constraint after {@code transform.select}, is then a bad record of its file and
 * line ({@code source.files.onBadRecord}), set aside at ingest like any malformed row instead of
 * reaching the sink. The sink checks the constraints again as it writes (one Spark added since).
 */
final class TableRules {
    private static final Logger LOG = LoggerFactory.getLogger(TableRules.class);

    private TableRules() {
    }

    /**
     * The rules of the spec's sink table; empty without a table (or one that cannot be read: the sink says why when it opens it).
     * A local table path without a {@code _delta_log} folder holds no table: that is known without Delta Kernel, whose first
     * use in a process (Hadoop's configuration, its shell probe, Kernel's classes) would otherwise sit before the broker's start.
     */
    static Optional<DeltaTables.RowRules> read(PipelineSpec spec) {
        String table = spec.location(Settings.SINK_PATH);
        if (noLocalTable(table)) {
            return Optional.empty();
        }
        try {
            return DeltaTables.rowRules(table, spec.storage());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code table} is a local path with no Delta log under it (no table yet); false for object storage. */
    static boolean noLocalTable(String table) {
        return table != null && Storage.scheme(table) == null && !Files.isDirectory(Path.of(table).resolve("_delta_log"));
    }

    /**
     * {@code input} with every column NOT NULL that the table holds NOT NULL; unchanged without a table.
     */
    static Schema notNull(PipelineSpec spec, Optional<DeltaTables.RowRules> rules, Schema input) {
        if (rules.isEmpty()) {
            return input;
        }
        Schema table = rules.get().schema();
        List<Field> fields = new ArrayList<>();
        List<String> tightened = new ArrayList<>();
        for (Field f : input.fields()) {
            int i = table.indexOf(f.name());
            if (f.nullable() && i >= 0 && !table.field(i).nullable()) {
                fields.add(new Field(f.name(), f.type(), false));
                tightened.add(f.name());
            } else {
                fields.add(f);
            }
        }
        if (tightened.isEmpty()) {
            return input;
        }
        LOG.info("pipeline {}: table {} holds {} NOT NULL: an input row with a null there is a bad record (source.files.onBadRecord)",
                spec.name(), spec.location(Settings.SINK_PATH), tightened);
        return new Schema(fields);
    }

    /**
     * Refuses, before the broker starts, a CHECK constraint of the sink's table that the file source's
     * rows cannot be checked against (one that does not parse, or reads a column the rows lack), when
     * the spec gives the schema; an inferred schema is known only once Kafka is there, where the file
     * source's opening refuses it the same way.
     */
    static void check(PipelineSpec spec) {
        if (!spec.has(Settings.FILES_PATH) || spec.has(Settings.DELTA_PATH) || Settings.kafkaSource(spec::has)) {
            return;
        }
        Schema input = PipelineParts.fileSchema(spec);
        if (input == null || read(spec).map(r -> r.constraints().isEmpty()).orElse(true)) {
            return;
        }
        IngestConfig plain = PipelineParts.ingestConfig(spec, input, null);
        if (AggregationParts.aggregateSpec(spec, plain.outputSchema()) == null) {
            PipelineParts.ingestConfig(spec, input, null, true);
        }
    }
}
