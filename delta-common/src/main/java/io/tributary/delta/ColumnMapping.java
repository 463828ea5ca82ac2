package io.tributary.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Delta's column mapping (PROTOCOL.md, "Column Mapping"), from the table's schema alone: on a table with
 * {@code delta.columnMapping.mode} {@code name} or {@code id} each column carries its physical name
 * ({@code delta.columnMapping.physicalName}) and id ({@code delta.columnMapping.id}) in its metadata; data
 * files name their columns by the physical name and give each the id as its Parquet field id, and an
 * {@code add}'s partition values and statistics are keyed by physical names. A column renamed keeps its
 * physical name (so its old data reads under the new name); a column dropped and added again gets a new one
 * (so the old data never comes back). Kernel 4.4 reads such tables and refuses to transform data for them
 * ({@code Transaction.transformLogicalData}); the Delta stages write them with {@link #physicalBatch}.
 */
public final class ColumnMapping {
    /** The table property of the mode: {@code none} (the default), {@code name} or {@code id}. */
    public static final String MODE = "delta.columnMapping.mode";
    /** A column's physical name, in its field metadata. */
    public static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";
    /** A column's id, in its field metadata. */
    public static final String ID = "delta.columnMapping.id";
    /** The Parquet field id of a column, in the field metadata of a physical schema (Kernel's Parquet writer and reader use it). */
    public static final String PARQUET_FIELD_ID = "parquet.field.id";

    private ColumnMapping() {
    }

    /** The mode the table properties set, lower case: {@code none}, {@code name} or {@code id}. */
    public static String mode(Map<String, String> tableProperties) {
        return tableProperties.getOrDefault(MODE, "none").trim().toLowerCase(Locale.ROOT);
    }

    /** True when the table's columns are mapped ({@code name} or {@code id} mode). */
    public static boolean isOn(Map<String, String> tableProperties) {
        return !"none".equals(mode(tableProperties));
    }

    /** True when a field of the schema, at any depth, carries a physical name or an id. */
    public static boolean isMapped(StructType schema) {
        for (StructField f : schema.fields()) {
            if (f.getMetadata().contains(PHYSICAL_NAME) || f.getMetadata().contains(ID) || isMapped(f.getDataType())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isMapped(DataType t) {
        if (t instanceof StructType st) {
            return isMapped(st);
        } else if (t instanceof ArrayType a) {
            return isMapped(a.getElementType());
        } else if (t instanceof MapType m) {
            return isMapped(m.getKeyType()) || isMapped(m.getValueType());
        }
        return false;
    }

    /** A column's physical name: its {@value #PHYSICAL_NAME}, or its name without one. */
    public static String physicalName(StructField field) {
        return field.getMetadata().contains(PHYSICAL_NAME) ? field.getMetadata().getString(PHYSICAL_NAME) : field.getName();
    }

    /**
     * The schema of the data files: each field (nested ones too) named by its physical name, with its
     * column id as Parquet field id, and without the {@code delta.*} metadata; types and nullability kept.
     */
    public static StructType physicalSchema(StructType logical) {
        List<StructField> fields = new ArrayList<>();
        for (StructField f : logical.fields()) {
            fields.add(physicalField(f));
        }
        return new StructType(fields);
    }

    private static StructField physicalField(StructField f) {
        FieldMetadata.Builder meta = FieldMetadata.builder();
        if (f.getMetadata().contains(ID)) {
            meta.putLong(PARQUET_FIELD_ID, ((Number) f.getMetadata().get(ID)).longValue());
        }
        return new StructField(physicalName(f), physicalType(f.getDataType()), f.isNullable(), meta.build());
    }

    private static DataType physicalType(DataType t) {
        if (t instanceof StructType st) {
            return physicalSchema(st);
        } else if (t instanceof ArrayType a) {
            return new ArrayType(physicalType(a.getElementType()), a.containsNull());
        } else if (t instanceof MapType m) {
            return new MapType(physicalType(m.getKeyType()), physicalType(m.getValueType()), m.isValueContainsNull());
        }
        return t;
    }

    /** The table property of the largest column id given so far. */
    public static final String MAX_COLUMN_ID = "delta.columnMapping.maxColumnId";

    /**
     * {@code schema} with a physical name and an id on each top-level column that has none (a column being added):
     * a new {@code col-<uuid>} as Spark gives, never a name a dropped column's data may still have, and the next id
     * after the table's {@value #MAX_COLUMN_ID} and every id in the schema (Kernel raises the property to it).
     */
    public static StructType withNewPhysicalNames(StructType schema, Map<String, String> tableProperties) {
        long next = Long.parseLong(tableProperties.getOrDefault(MAX_COLUMN_ID, "0").trim());
        for (StructField f : schema.fields()) {
            if (f.getMetadata().contains(ID)) {
                next = Math.max(next, ((Number) f.getMetadata().get(ID)).longValue());
            }
        }
        List<StructField> fields = new ArrayList<>();
        for (StructField f : schema.fields()) {
            if (f.getMetadata().contains(PHYSICAL_NAME) || f.getMetadata().contains(ID)) {
                fields.add(f);
            } else {
                FieldMetadata meta = FieldMetadata.builder().fromMetadata(f.getMetadata())
                        .putString(PHYSICAL_NAME, "col-" + java.util.UUID.randomUUID()).putLong(ID, ++next).build();
                fields.add(new StructField(f.getName(), f.getDataType(), f.isNullable(), meta));
            }
        }
        return new StructType(fields);
    }

    /**
     * Partition values as the log keys them (by physical name on a column-mapped table) keyed by the
     * logical column names of {@code schema}; a key no column has is kept as it is.
     */
    public static Map<String, String> logicalPartitionValues(Map<String, String> logged, StructType schema) {
        Map<String, String> byPhysical = new LinkedHashMap<>();
        for (StructField f : schema.fields()) {
            byPhysical.put(physicalName(f), f.getName());
        }
        Map<String, String> out = new LinkedHashMap<>();
        logged.forEach((k, v) -> out.put(byPhysical.getOrDefault(k, k), v));
        return out;
    }

    /**
     * A batch of rows of the table's {@code logical} schema (every column, partition columns included) as
     * the batch to write in a data file: the columns of {@code partitionColumns} left out, the others
     * renamed to their physical names with their ids as field ids. The column vectors are shared, not copied.
     */
    public static ColumnarBatch physicalBatch(ColumnarBatch batch, StructType logical, Set<String> partitionColumns) {
        StructType physical = physicalSchema(logical);
        List<StructField> fields = new ArrayList<>();
        List<ColumnVector> vectors = new ArrayList<>();
        for (int i = 0; i < logical.length(); i++) {
            if (!partitionColumns.contains(logical.at(i).getName())) {
                fields.add(physical.at(i));
                vectors.add(batch.getColumnVector(i));
            }
        }
        return new Batch(new StructType(fields), vectors, batch.getSize());
    }

    /** Column vectors under another schema. */
    private record Batch(StructType schema, List<ColumnVector> vectors, int size) implements ColumnarBatch {
        @Override
        public StructType getSchema() {
            return schema;
        }

        @Override
        public ColumnVector getColumnVector(int ordinal) {
            return vectors.get(ordinal);
        }

        @Override
        public int getSize() {
            return size;
        }
    }
}
