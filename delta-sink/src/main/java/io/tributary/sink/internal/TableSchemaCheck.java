package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;

/**
 * Whether a table still has the schema and partitioning the sink writes: the same, or a schema the
 * sink grows ({@link TableSchemaUpdate}); a table another writer changed since the sink started is
 * refused.
 */
final class TableSchemaCheck {
    private final String tablePath;
    private final Schema schema;
    private final StructType kernelSchema;
    private final Partitioning partitioning;

    TableSchemaCheck(String tablePath, Schema schema, StructType kernelSchema, Partitioning partitioning) {
        this.tablePath = tablePath;
        this.schema = schema;
        this.kernelSchema = kernelSchema;
        this.partitioning = partitioning;
    }

    /**
     * Before the sink creates the table: a column name with a character Delta allows only with column mapping (one of
     * {@code " ,;{}()\n\t="}, at any depth) is refused naming it, as Spark's write refuses it, unless the table is created
     * with column mapping ({@code delta.columnMapping.mode}).
     */
    static void namesDeltaTakes(String tablePath, Schema schema, java.util.Map<String, String> tableProperties) {
        if (!io.tributary.delta.ColumnMapping.isOn(tableProperties)) {
            String bad = badName(schema);
            if (bad != null) {
                throw TableErrors.invalidColumnName(tablePath, bad);
            }
        }
    }

    private static String badName(Schema schema) {
        for (io.tributary.schema.Field f : schema.fields()) {
            if (f.name().chars().anyMatch(c -> " ,;{}()\n\t=".indexOf(c) >= 0)) {
                return f.name();
            }
            if (f.type().kind() == io.tributary.schema.DataType.Kind.STRUCT) {
                String inner = badName(f.type().struct());
                if (inner != null) {
                    return f.name() + "." + inner;
                }
            }
        }
        return null;
    }

    void check(Snapshot snap) {
        if (!TableSchemaUpdate.grow(snap.getSchema(), kernelSchema).equals(snap.getSchema()) && !grows(snap)) {
            throw TableErrors.schemaChanged(tablePath, KernelSchemas.fromKernel(tablePath, snap.getSchema()).toDdl(), schema.toDdl());
        }
        if (!snap.getPartitionColumnNames().equals(partitioning.columns())) {
            throw TableErrors.partitioningDiffers(tablePath, snap.getPartitionColumnNames(), partitioning.columns(), partitioning.specs());
        }
    }

    /**
     * True when the sink's schema is the table's grown by columns the sink adds (mergeSchema) or
     * widens (typeWidening): the commit sets it ({@link TableSchemaUpdate}).
     */
    private boolean grows(Snapshot snap) {
        Schema table = KernelSchemas.fromKernel(tablePath, snap.getSchema());
        try {
            return SchemaMerge.merge(tablePath, table, schema, true, DeltaTableWriter.typeWidening(snap)).schema().equals(schema);
        } catch (TributaryException e) {
            return false;
        }
    }
}
