package io.tributary.service.internal;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink table's NOT NULL columns (a table Spark created with {@code NOT NULL}), applied to the
 * schema a file source parses its rows with, when the rows go to the table as they are: a row with
 * a null there is then a bad record of its file and line ({@code source.files.onBadRecord}), set
 * aside at ingest like any malformed row instead of reaching the sink, which could not write it.
 */
final class TableNotNull {
    private static final Logger LOG = LoggerFactory.getLogger(TableNotNull.class);

    private TableNotNull() {
    }

    /**
     * {@code input} with every column NOT NULL that the spec's sink table holds NOT NULL; unchanged
     * without a table (or one that cannot be read: the sink says why when it opens it).
     */
    static Schema apply(PipelineSpec spec, Schema input) {
        String path = spec.location(Settings.SINK_PATH);
        Optional<Schema> table;
        try {
            table = DeltaTables.schema(path, spec.storage());
        } catch (RuntimeException e) {
            return input;
        }
        if (table.isEmpty()) {
            return input;
        }
        List<Field> fields = new ArrayList<>();
        List<String> tightened = new ArrayList<>();
        for (Field f : input.fields()) {
            int i = table.get().indexOf(f.name());
            if (f.nullable() && i >= 0 && !table.get().field(i).nullable()) {
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
                spec.name(), path, tightened);
        return new Schema(fields);
    }
}
