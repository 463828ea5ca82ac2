package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The schema a sink writes an existing table with, as Delta's writer decides it: the table's
 * columns in the table's order (a column the pipeline lacks is written null, as Spark writes it),
 * then the pipeline's new columns, which only {@code mergeSchema} adds (nullable, at the end; new
 * fields of a struct at the end of the struct). Names match case-insensitively, as in Delta. A
 * column whose type differs is refused, unless the table has Delta's {@code typeWidening} feature
 * and the change is one it allows (BYTE, SHORT, INT to a wider integer; FLOAT to DOUBLE; DATE to
 * TIMESTAMP_NTZ; a DECIMAL to one with as many integer and fraction digits or more).
 */
public final class SchemaMerge {
    /** The widenings Delta's type widening allows, beside decimals. */
    private static final Set<String> WIDENINGS = Set.of("BYTE>SHORT", "BYTE>INT", "BYTE>LONG", "SHORT>INT", "SHORT>LONG", "INT>LONG",
            "FLOAT>DOUBLE", "DATE>TIMESTAMP_NTZ", "BYTE>DOUBLE", "SHORT>DOUBLE", "INT>DOUBLE");

    private final String tablePath;
    private final boolean mergeSchema;
    private final boolean typeWidening;
    private final List<String> added = new ArrayList<>();
    private final List<String> widened = new ArrayList<>();

    private SchemaMerge(String tablePath, boolean mergeSchema, boolean typeWidening) {
        this.tablePath = tablePath;
        this.mergeSchema = mergeSchema;
        this.typeWidening = typeWidening;
    }

    /** What a merge gave: the schema to write with, and the columns it adds to the table and widens. */
    public record Result(Schema schema, List<String> added, List<String> widened) {
        public boolean changesTable() {
            return !added.isEmpty() || !widened.isEmpty();
        }
    }

    /**
     * The schema to write {@code table} with, for a pipeline whose rows have {@code pipeline}'s columns.
     *
     * @throws TributaryException showing both schemas when the pipeline has columns the table lacks and
     *         {@code mergeSchema} is off, or a column's type differs in a way the table cannot take
     */
    public static Result merge(String tablePath, Schema table, Schema pipeline, boolean mergeSchema, boolean typeWidening) {
        SchemaMerge m = new SchemaMerge(tablePath, mergeSchema, typeWidening);
        Schema merged = m.fields(table, pipeline, "", table, pipeline);
        if (!m.added.isEmpty() && !mergeSchema) {
            throw TableErrors.lacksColumns(tablePath, m.added, table.toDdl(), pipeline.toDdl());
        }
        return new Result(merged, List.copyOf(m.added), List.copyOf(m.widened));
    }

    private Schema fields(Schema table, Schema pipeline, String prefix, Schema topTable, Schema topPipeline) {
        List<Field> out = new ArrayList<>();
        for (Field t : table.fields()) {
            int i = pipeline.indexOf(t.name());
            if (i < 0) {
                if (!t.nullable()) {
                    throw TableErrors.notNullNotWritten(tablePath, prefix, t.name(), topTable.toDdl(), topPipeline.toDdl());
                }
                out.add(t);
                continue;
            }
            Field p = pipeline.field(i);
            out.add(new Field(t.name(), type(t.type(), p.type(), prefix + t.name(), topTable, topPipeline), t.nullable()));
        }
        for (Field p : pipeline.fields()) {
            if (table.indexOf(p.name()) < 0) {
                added.add(prefix + p.name());
                out.add(new Field(p.name(), p.type(), true));
            }
        }
        return new Schema(out);
    }

    private DataType type(DataType t, DataType p, String column, Schema topTable, Schema topPipeline) {
        if (t.equals(p)) {
            return t;
        }
        if (t.kind() == p.kind()) {
            switch (t.kind()) {
                case STRUCT:
                    return DataType.struct(fields(t.struct(), p.struct(), column + ".", topTable, topPipeline));
                case ARRAY:
                    return DataType.array(type(t.element(), p.element(), column + "[]", topTable, topPipeline));
                case MAP:
                    return DataType.map(type(t.keyType(), p.keyType(), column + " key", topTable, topPipeline),
                            type(t.valueType(), p.valueType(), column + " value", topTable, topPipeline));
                default:
                    break;
            }
        }
        if (widens(t, p)) {
            if (typeWidening) {
                widened.add(column + " " + t.ddl() + " to " + p.ddl());
                return p;
            }
            throw TableErrors.needsTypeWidening(tablePath, column, t.ddl(), p.ddl(), topTable.toDdl(), topPipeline.toDdl());
        }
        if (widens(p, t)) {
            return t; // a narrower value fits the table's wider column (an INT into a BIGINT), as Spark writes it
        }
        throw TableErrors.cannotChangeType(tablePath, column, t.ddl(), p.ddl(), topTable.toDdl(), topPipeline.toDdl());
    }

    /** True when every column of {@code other} (struct fields too) is one of {@code schema}'s, by name. */
    public static boolean covers(Schema schema, Schema other) {
        for (Field f : other.fields()) {
            int i = schema.indexOf(f.name());
            if (i < 0) {
                return false;
            }
            DataType mine = schema.field(i).type();
            if (mine.kind() == DataType.Kind.STRUCT && f.type().kind() == DataType.Kind.STRUCT && !covers(mine.struct(), f.type().struct())) {
                return false;
            }
        }
        return true;
    }

    /** True when Delta's type widening changes {@code from} into {@code to}. */
    static boolean widens(DataType from, DataType to) {
        if (from.kind() == DataType.Kind.DECIMAL && to.kind() == DataType.Kind.DECIMAL) {
            return to.scale() >= from.scale() && to.precision() - to.scale() >= from.precision() - from.scale() && !to.equals(from);
        }
        if (to.kind() == DataType.Kind.DECIMAL && (from.kind() == DataType.Kind.BYTE || from.kind() == DataType.Kind.SHORT
                || from.kind() == DataType.Kind.INT || from.kind() == DataType.Kind.LONG)) {
            int digits = switch (from.kind()) {
                case BYTE -> 3;
                case SHORT -> 5;
                case INT -> 10;
                default -> 20;
            };
            return to.precision() - to.scale() >= digits;
        }
        return WIDENINGS.contains(from.kind() + ">" + to.kind());
    }
}
