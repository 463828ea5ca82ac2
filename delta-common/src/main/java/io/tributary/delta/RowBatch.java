package io.tributary.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.StructType;
import java.util.List;

/** A list of {@code Object[]} rows (Tributary's in-memory form, see {@code DataType}) as a Kernel {@link ColumnarBatch}. */
public final class RowBatch implements ColumnarBatch {
    private final StructType schema;
    private final List<Object[]> rows;

    public RowBatch(StructType schema, List<Object[]> rows) {
        this.schema = schema;
        this.rows = rows;
    }

    @Override
    public StructType getSchema() {
        return schema;
    }

    @Override
    public ColumnVector getColumnVector(int ordinal) {
        return RowColumnVector.of(schema.at(ordinal).getDataType(), rows, ordinal);
    }

    /** Kernel drops partition columns from the rows it writes (they live in the folder name). */
    @Override
    public ColumnarBatch withDeletedColumnAt(int ordinal) {
        ColumnVector[] vectors = new ColumnVector[schema.length()];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = getColumnVector(i);
        }
        return new io.delta.kernel.defaults.internal.data.DefaultColumnarBatch(rows.size(), schema, vectors).withDeletedColumnAt(ordinal);
    }

    @Override
    public int getSize() {
        return rows.size();
    }
}
