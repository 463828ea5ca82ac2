package io.tributary.sink.internal;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.tributary.delta.ColumnMapping;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The columns of a table's data files, and where a row's values go in them. A row holds every column of the table
 * (its partition columns too); a data file holds the others: a partition column's value is the file's folder
 * ({@code part=1/}) and its {@code add} action's {@code partitionValues}. On a table with column mapping each column
 * (nested fields too) is named in the file by its physical name and carries its column id as the Parquet field id,
 * as Spark 4.2 with Delta 4.4 writes them in both modes, {@code name} and {@code id}; a VARIANT's group keeps its
 * {@code value} and {@code metadata} fields as they are.
 *
 * @param schema the file's columns in Tributary's types, named as the table names them (their nullability is the rows')
 * @param physical the same columns as Kernel types, named as the file names them, with {@value ColumnMapping#PARQUET_FIELD_ID}
 *                 in their metadata where they carry a field id (the statistics' column names are these)
 * @param sources for each of the file's columns, its position in a row
 */
record FileColumns(Schema schema, StructType physical, int[] sources) {

    /** Every column of the rows, under its own name: an unpartitioned table without column mapping. */
    static FileColumns plain(Schema rows, StructType kernelRows) {
        int[] all = new int[rows.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return new FileColumns(rows, kernelRows, all);
    }

    /**
     * The file columns of rows of {@code rows} (Kernel types {@code kernelRows}) in the table whose schema is {@code table}
     * (with its column mapping metadata) and whose partition columns are {@code partitionColumns}. A row column the table
     * lacks keeps its own name.
     */
    static FileColumns of(Schema rows, StructType kernelRows, StructType table, Collection<String> partitionColumns) {
        Set<String> partitions = partitionColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        List<Field> fields = new ArrayList<>();
        List<StructField> physical = new ArrayList<>();
        List<Integer> sources = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Field f = rows.field(i);
            if (partitions.contains(f.name().toLowerCase(Locale.ROOT))) {
                continue;
            }
            fields.add(f);
            physical.add(physical(kernelRows.at(i), tableField(table, f.name())));
            sources.add(i);
        }
        return new FileColumns(new Schema(fields), new StructType(physical), sources.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * A row's field ({@code row}, of the rows' type) as the file names it: the physical name and the id of the table's
     * field {@code table}, its nested fields likewise; its own name where the table has no such field.
     */
    private static StructField physical(StructField row, StructField table) {
        if (table == null) {
            return row;
        }
        FieldMetadata.Builder meta = FieldMetadata.builder();
        if (table.getMetadata().contains(ColumnMapping.ID)) {
            meta.putLong(ColumnMapping.PARQUET_FIELD_ID, ((Number) table.getMetadata().get(ColumnMapping.ID)).longValue());
        }
        return new StructField(ColumnMapping.physicalName(table), physicalType(row.getDataType(), table.getDataType()),
                row.isNullable(), meta.build());
    }

    private static DataType physicalType(DataType row, DataType table) {
        if (row instanceof StructType rs && table instanceof StructType ts) {
            List<StructField> out = new ArrayList<>();
            for (StructField f : rs.fields()) {
                out.add(physical(f, tableField(ts, f.getName())));
            }
            return new StructType(out);
        } else if (row instanceof ArrayType ra && table instanceof ArrayType ta) {
            return new ArrayType(physicalType(ra.getElementType(), ta.getElementType()), ra.containsNull());
        } else if (row instanceof MapType rm && table instanceof MapType tm) {
            return new MapType(physicalType(rm.getKeyType(), tm.getKeyType()),
                    physicalType(rm.getValueType(), tm.getValueType()), rm.isValueContainsNull());
        }
        return row;
    }

    private static StructField tableField(StructType table, String name) {
        for (StructField f : table.fields()) {
            if (f.getName().equalsIgnoreCase(name)) {
                return f;
            }
        }
        return null;
    }

    /** The Parquet field id of a column of {@link #physical} (nested too), or null when it has none. */
    static Integer fieldId(StructField f) {
        return f.getMetadata().contains(ColumnMapping.PARQUET_FIELD_ID)
                ? ((Number) f.getMetadata().get(ColumnMapping.PARQUET_FIELD_ID)).intValue() : null;
    }
}
