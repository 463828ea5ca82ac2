package io.tributary.source;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.StructType;
import java.util.List;

/** Test support (as the delta-sink writes): a list of {@code Object[]} rows (Tributary's in-memory form, see {@code DataType}) as a Kernel {@link ColumnarBatch}. */
final class RowBatch implements ColumnarBatch {
    private final StructType schema;
    private final List<Object[]> rows;

    RowBatch(StructType schema, List<Object[]> rows) {
        this.schema = schema;
        this.rows = rows;
    }

    @Override
    public StructType getSchema() {
        return schema;
    }

    @Override
    public ColumnVector getColumnVector(int ordinal) {
        return new RowColumnVector(schema.at(ordinal).getDataType(), rows, new int[] {ordinal});
    }

    @Override
    public int getSize() {
        return rows.size();
    }
}
