package io.tributary.delta.internal;

import io.delta.kernel.types.DataType;
import io.tributary.schema.TributaryException;

/** delta-common's user-facing errors: a Delta table Tributary cannot read. */
public final class DeltaErrors {
    private DeltaErrors() {
    }

    /** When a Delta table has a column of a type Tributary cannot read. */
    public static TributaryException unreadableColumnType(String tablePath, String column, DataType type) {
        return new TributaryException("delta table " + tablePath + " has column '" + column + "' of Delta type " + type
                + ", which Tributary cannot read yet (primitive types, structs, arrays, and maps whose keys are of a primitive type); read the "
                + "table with Spark, or drop the column");
    }

    /** When a deletion vector (a bitmap of a data file's deleted rows) cannot be read as Delta's format says. */
    public static TributaryException deletionVectorUnreadable(String where, String problem) {
        return new TributaryException("deletion vector " + where + " is unreadable: " + problem + "; the file was damaged or "
                + "not written as Delta's protocol says (\"Deletion Vector Format\"); restore it from a copy, or remove the data "
                + "file it belongs to from the table with the engine that wrote it");
    }
}
