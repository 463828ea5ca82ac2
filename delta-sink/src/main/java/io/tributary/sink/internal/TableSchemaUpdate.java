package io.tributary.sink.internal;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TypeChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A table's schema grown in the commit that writes its first rows with the new columns, as
 * Spark's {@code mergeSchema} writes it: one {@code metaData} action with the new schema, and a
 * {@code protocol} action only when a new type needs its table feature (TIMESTAMP_NTZ).
 *
 * <p>Kernel 4.4 changes a schema only on tables with column mapping, which its own writer cannot
 * write, so the new schema is set on the transaction Kernel built
 * ({@link io.tributary.delta.kernel.KernelTransactions}), after {@link SchemaMerge} checked the change is one Delta allows: new nullable
 * columns and struct fields at the end, and widenings only with the {@code typeWidening} feature,
 * recorded in the field's {@code delta.typeChanges} as Delta's protocol asks. Kernel then commits,
 * checksums and checkpoints the new schema as its own.
 */
final class TableSchemaUpdate {
    private TableSchemaUpdate() {
    }

    /**
     * {@code table} grown to {@code target}: the table's fields as they are (metadata kept), a
     * widened field's type changed and recorded, new fields appended.
     */
    static StructType grow(StructType table, StructType target) {
        List<StructField> out = new ArrayList<>();
        for (StructField want : target.fields()) {
            StructField have = find(table, want.getName());
            if (have == null) {
                out.add(new StructField(want.getName(), want.getDataType(), true));
                continue;
            }
            DataType type = grow(have.getDataType(), want.getDataType());
            if (type.equals(have.getDataType())) {
                out.add(have);
            } else if (isPrimitive(have.getDataType())) {
                List<TypeChange> changes = new ArrayList<>(have.getTypeChanges());
                changes.add(new TypeChange(have.getDataType(), type));
                out.add(have.withDataType(type).withTypeChanges(changes));
            } else {
                out.add(have.withDataType(type));
            }
        }
        return new StructType(out);
    }

    private static DataType grow(DataType have, DataType want) {
        if (have instanceof StructType h && want instanceof StructType w) {
            return grow(h, w);
        }
        if (have instanceof ArrayType h && want instanceof ArrayType w) {
            DataType e = grow(h.getElementType(), w.getElementType());
            return e.equals(h.getElementType()) ? have : new ArrayType(e, h.containsNull());
        }
        if (have instanceof MapType h && want instanceof MapType w) {
            DataType k = grow(h.getKeyType(), w.getKeyType());
            DataType v = grow(h.getValueType(), w.getValueType());
            return k.equals(h.getKeyType()) && v.equals(h.getValueType()) ? have : new MapType(k, v, h.isValueContainsNull());
        }
        return have.equivalent(want) ? have : want;
    }

    private static boolean isPrimitive(DataType t) {
        return !(t instanceof StructType || t instanceof ArrayType || t instanceof MapType);
    }

    private static StructField find(StructType s, String name) {
        for (StructField f : s.fields()) {
            if (f.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        return null;
    }
}
