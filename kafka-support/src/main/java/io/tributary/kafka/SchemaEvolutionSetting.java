package io.tributary.kafka;

import io.tributary.settings.Setting;

/**
 * {@code schemaEvolution}, Auto Loader's {@code schemaEvolutionMode} (same names): what a source does
 * with fields its schema lacks. One definition, its key, modes and documentation, that both sources
 * take: the file source under {@code source.files.} (its JSON fields), a Kafka source under
 * {@code source.kafka.} (the fields of a registry's newer Avro schema), each reading the mode its
 * own way ({@link Setting#parsedBy}) and saying in its own words what the mode does to its values.
 */
public final class SchemaEvolutionSetting {
    public static final Setting<String> MODE = Setting.oneOf("schemaEvolution",
            "JSON fields the schema lacks (Auto Loader's schemaEvolutionMode; default none with a schema, addNewColumns without):"
                    + " ignored; added as nullable columns (the batch runs"
                    + " again with the grown schema, recorded with the ingest's progress; needs sink.delta.mergeSchema); kept in a"
                    + " _rescued_data column with wrongly typed values; or stop the run (docs/formats.md)",
            "none", "addNewColumns", "rescue", "failOnNewColumns");

    private SchemaEvolutionSetting() {
    }
}
