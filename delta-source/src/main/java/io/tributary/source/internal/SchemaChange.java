package io.tributary.source.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;

/**
 * What a commit that sets the table's schema to {@code next} means for a stream that reads with
 * {@code current}, as Spark's Delta source judges it: rows written with {@code next} are readable
 * when {@code current} has each of its columns with the same type ({@link Kind#READABLE}); the
 * change is additive when {@code next} has each of the stream's columns with the same type, and
 * more ({@link Kind#ADDITIVE}: new columns, top level or in structs); anything else (a column
 * dropped, renamed, or of another type) is {@link Kind#INCOMPATIBLE}.
 */
public record SchemaChange(Kind kind, String reason) {
    public enum Kind { READABLE, ADDITIVE, INCOMPATIBLE }

    public static SchemaChange of(Schema current, Schema next) {
        if (missing(current, next, "") == null) {
            return new SchemaChange(Kind.READABLE, null);
        }
        String lost = missing(next, current, "");
        return lost == null ? new SchemaChange(Kind.ADDITIVE, null) : new SchemaChange(Kind.INCOMPATIBLE, lost);
    }

    /**
     * What a change from {@code before} to {@code after} loses: a column gone or of another type
     * (the reason), or null when {@code after} keeps every column of {@code before} with its type.
     */
    public static String lost(Schema before, Schema after) {
        return missing(after, before, "");
    }

    /** Why {@code cover} does not hold every column of {@code of} with its type, or null when it does. */
    private static String missing(Schema cover, Schema of, String prefix) {
        for (Field f : of.fields()) {
            int i = cover.indexOf(f.name());
            String name = prefix + f.name();
            if (i < 0) {
                return "column '" + name + "' is gone (dropped or renamed)";
            }
            DataType mine = cover.field(i).type();
            if (mine.kind() == DataType.Kind.STRUCT && f.type().kind() == DataType.Kind.STRUCT) {
                String nested = missing(mine.struct(), f.type().struct(), name + ".");
                if (nested != null) {
                    return nested;
                }
            } else if (!mine.ddl().equals(f.type().ddl())) {
                return "column '" + name + "' changes type from " + f.type().ddl() + " to " + mine.ddl();
            }
        }
        return null;
    }
}
