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
                + ", which Tributary cannot read yet (primitive types, structs, arrays and maps with string keys); read the "
                + "table with Spark, or drop the column");
    }
}
