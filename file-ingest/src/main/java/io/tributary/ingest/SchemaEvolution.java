package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import java.util.Locale;

/**
 * What the ingest does with a field its schema lacks, as Databricks Auto Loader's
 * {@code cloudFiles.schemaEvolutionMode} (same names), for JSON files.
 */
public enum SchemaEvolution {
    /** Ignore new fields (Spark's file source; Auto Loader's default when a schema is given). */
    NONE("none"),
    /**
     * A new field stops the batch before it is published; the schema grows by the batch's new fields
     * (nullable, at the end), is recorded with the ingest's progress, and the batch runs again with it
     * (Auto Loader's default without a schema; Auto Loader stops the stream there and needs a restart).
     */
    ADD_NEW_COLUMNS("addNewColumns"),
    /**
     * The schema never changes: fields it lacks, and values of the wrong type, go to the
     * {@value io.tributary.schema.RescuedData#COLUMN} column as JSON, with the file's path, instead of making the
     * record bad.
     */
    RESCUE("rescue"),
    /** A new field stops the run, naming the field, the file and the line. */
    FAIL_ON_NEW_COLUMNS("failOnNewColumns");

    private final String specName;

    SchemaEvolution(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    /** The mode of a spec value, case-insensitively. */
    public static SchemaEvolution forName(String name) {
        for (SchemaEvolution e : values()) {
            if (e.specName.toLowerCase(Locale.ROOT).equals(name == null ? "none" : name.strip().toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw IngestErrors.unknownSchemaEvolution(name);
    }
}
