package io.tributary.ingest.internal;

import io.tributary.schema.TributaryException;

/** The refusals of Spark's option {@code singleVariantColumn} (each whole record one VARIANT column) at start. */
public final class SingleVariantErrors {
    private SingleVariantErrors() {
    }

    /** When a schema evolution mode is given beside {@code singleVariantColumn}, whose one column takes every field already. */
    public static TributaryException schemaEvolutionSingleVariant(String key, String mode) {
        return new TributaryException(key + ": '" + mode + "' cannot be used with source.files.options.singleVariantColumn, whose one "
                + "VARIANT column holds every field of a record, new ones too; leave " + key + " out");
    }

    /** When {@code singleVariantColumn} names no column. */
    public static TributaryException singleVariantColumnBlank() {
        return new TributaryException("source.files.options.singleVariantColumn: names no column; give the name of the one VARIANT "
                + "column each record is read as (v, say)");
    }

    /** When a schema other than the one VARIANT column is given beside {@code singleVariantColumn}, as Spark refuses it. */
    public static TributaryException singleVariantColumnSchema(String ddl, String name) {
        return new TributaryException("source.files.schema: '" + ddl + "' is invalid beside source.files.options.singleVariantColumn '"
                + name + "', which reads each whole record as the one column '" + name + " VARIANT' (Spark's "
                + "INVALID_SINGLE_VARIANT_COLUMN); leave source.files.schema out, or give '" + name + " VARIANT' (a malformed "
                + "record is a bad record, not a _corrupt_record column)");
    }
}
