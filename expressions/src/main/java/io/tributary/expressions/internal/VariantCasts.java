package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.types.variant.VariantUtil;

/**
 * Casts from and to VARIANT as Spark 4.2's {@code VariantGet.cast} and {@code castToVariant} make them. A VARIANT's
 * scalar is read as the SQL value of its own type (a whole number BIGINT, a decimal DECIMAL, ...) and cast to the
 * target by the ANSI cast, a failure or an impossible cast being {@code INVALID_VARIANT_CAST}; an object or an array
 * casts to STRING as its JSON, to a STRUCT or MAP (objects) or an ARRAY (arrays) piece by piece; a JSON null is SQL null.
 */
final class VariantCasts {
    private VariantCasts() {
    }

    /** Whether Spark casts {@code from} to {@code to} where one of them is VARIANT. */
    static boolean canCast(DataType from, DataType to) {
        if (Variants.isVariant(from)) {
            return readable(to);
        }
        return writable(from);
    }

    /** Whether a VARIANT casts to {@code to}: atomic types, and ARRAY, MAP of STRING keys and STRUCT of them. */
    static boolean readable(DataType to) {
        if (to == null || Variants.isVariant(to)) {
            return true;
        }
        if (Intervals.isInterval(to) || Types.VOID.equals(to) || CalendarIntervals.isCalendar(to)) {
            return false;
        }
        return switch (to.kind()) {
            case ARRAY -> readable(to.element());
            case MAP -> to.keyType().kind() == Kind.STRING && readable(to.element());
            case STRUCT -> to.struct().fields().stream().allMatch(f -> readable(f.type()));
            default -> true;
        };
    }

    /** Whether values of {@code from} cast to VARIANT: atomic types and arrays of them (Spark asks to_variant_object for structs and maps). */
    static boolean writable(DataType from) {
        if (from == null || Variants.isVariant(from)) {
            return true;
        }
        if (Intervals.isInterval(from) || Types.VOID.equals(from) || CalendarIntervals.isCalendar(from)) {
            return false;
        }
        return switch (from.kind()) {
            case ARRAY -> writable(from.element());
            case MAP, STRUCT -> false;
            default -> true;
        };
    }

    /** The kernel of {@code CAST(x AS to)} for a VARIANT x or a VARIANT {@code to}. */
    static Kernel.Unary kernel(DataType from, DataType to) {
        if (Variants.isVariant(to)) {
            return Variants.isVariant(from) ? v -> v : v -> toVariant(v, from);
        }
        return v -> read((Variant) v, to, true);
    }

    /** The kernel of {@code TRY_CAST(v AS to)} for a VARIANT v: null for each part that does not cast. */
    static Kernel.Unary tryKernel(DataType to) {
        return v -> read((Variant) v, to, false);
    }

    /** {@code v} as a value of {@code to}; when it is none, {@code INVALID_VARIANT_CAST} if {@code fail}, else null. */
    static Object read(Variant v, DataType to, boolean fail) {
        if (Variants.isVariant(to)) {
            return v;
        }
        VariantUtil.Type type = v.getType();
        if (type == VariantUtil.Type.NULL) {
            return null;
        }
        switch (to.kind()) {
            case STRUCT -> {
                if (type != VariantUtil.Type.OBJECT) {
                    return invalid(v, to, fail);
                }
                Schema fields = to.struct();
                Object[] row = new Object[fields.size()];
                for (int i = 0; i < row.length; i++) {
                    Variant f = v.getFieldByKey(fields.field(i).name());
                    row[i] = f == null ? null : read(f, fields.field(i).type(), fail);
                }
                return row;
            }
            case ARRAY -> {
                if (type != VariantUtil.Type.ARRAY) {
                    return invalid(v, to, fail);
                }
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < v.arraySize(); i++) {
                    out.add(read(v.getElementAtIndex(i), to.element(), fail));
                }
                return out;
            }
            case MAP -> {
                if (type != VariantUtil.Type.OBJECT) {
                    return invalid(v, to, fail);
                }
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int i = 0; i < v.objectSize(); i++) {
                    Variant.ObjectField f = v.getFieldAtIndex(i);
                    out.put(f.key, read(f.value, to.element(), fail));
                }
                return out;
            }
            default -> {
                return scalar(v, type, to, fail);
            }
        }
    }

    private static Object scalar(Variant v, VariantUtil.Type type, DataType to, boolean fail) {
        if (type == VariantUtil.Type.OBJECT || type == VariantUtil.Type.ARRAY) {
            return to.kind() == Kind.STRING ? Variants.json(v) : invalid(v, to, fail);
        }
        Object value;
        DataType from;
        switch (type) {
            case BOOLEAN -> {
                value = v.getBoolean();
                from = DataType.BOOLEAN;
            }
            case LONG -> {
                value = v.getLong();
                from = DataType.LONG;
            }
            case STRING -> {
                value = v.getString();
                from = DataType.STRING;
            }
            case DOUBLE -> {
                value = v.getDouble();
                from = DataType.DOUBLE;
            }
            case DECIMAL -> {
                BigDecimal d = decimal(v);
                value = d;
                from = DataType.decimal(Math.max(d.precision(), d.scale()), d.scale());
            }
            case DATE -> {
                value = (int) v.getLong();
                from = DataType.DATE;
            }
            case TIMESTAMP -> {
                value = v.getLong();
                from = DataType.TIMESTAMP;
            }
            case TIMESTAMP_NTZ -> {
                value = v.getLong();
                from = DataType.TIMESTAMP_NTZ;
            }
            case FLOAT -> {
                value = v.getFloat();
                from = DataType.FLOAT;
            }
            case BINARY -> {
                value = v.getBinary();
                from = DataType.BINARY;
            }
            default -> { // UUID
                value = v.getUuid().toString();
                from = DataType.STRING;
            }
        }
        if (from.equals(to)) {
            return value;
        }
        if (!Casts.canCast(from, to)) {
            return invalid(v, to, fail);
        }
        try {
            Object out = Casts.kernel(from, to).apply1(value);
            return out != null ? out : invalid(v, to, fail);
        } catch (Failure f) {
            return invalid(v, to, fail);
        }
    }

    /** A VARIANT decimal as Spark reads it: no trailing zeros, a scale of at least 0. */
    static BigDecimal decimal(Variant v) {
        BigDecimal d = v.getDecimal();
        return d.scale() < 0 ? d.setScale(0) : d;
    }

    private static Object invalid(Variant v, DataType to, boolean fail) {
        if (!fail) {
            return null;
        }
        throw Failure.of("INVALID_VARIANT_CAST", "the VARIANT value '" + Variants.json(v) + "' cannot be cast to " + Types.name(to));
    }

    /** A value of {@code from} as a VARIANT ({@code CAST(x AS VARIANT)}, {@code to_variant_object}). */
    static Variant toVariant(Object value, DataType from) {
        VariantBuilder b = new VariantBuilder(false);
        try {
            append(b, value, from);
            return b.result();
        } catch (LinkageError e) { // spark-variant reports its size limit with a Spark class this module does not ship
            throw VariantJson.sizeLimit();
        }
    }

    private static void append(VariantBuilder b, Object v, DataType t) {
        if (v == null) {
            b.appendNull();
            return;
        }
        if (Variants.isVariant(t)) {
            b.appendVariant((Variant) v);
            return;
        }
        switch (t.kind()) {
            case BOOLEAN -> b.appendBoolean((Boolean) v);
            case BYTE, SHORT, INT, LONG -> b.appendLong(((Number) v).longValue());
            case FLOAT -> b.appendFloat((Float) v);
            case DOUBLE -> b.appendDouble((Double) v);
            case DECIMAL -> b.appendDecimal((BigDecimal) v);
            case STRING -> b.appendString((String) v);
            case BINARY -> b.appendBinary((byte[]) v);
            case DATE -> b.appendDate((Integer) v);
            case TIMESTAMP -> b.appendTimestamp((Long) v);
            case TIMESTAMP_NTZ -> b.appendTimestampNtz((Long) v);
            case ARRAY -> {
                int start = b.getWritePos();
                ArrayList<Integer> offsets = new ArrayList<>();
                for (Object e : (List<?>) v) {
                    offsets.add(b.getWritePos() - start);
                    append(b, e, t.element());
                }
                b.finishWritingArray(start, offsets);
            }
            case STRUCT -> {
                Object[] row = (Object[]) v;
                List<String> keys = new ArrayList<>();
                t.struct().fields().forEach(f -> keys.add(f.name()));
                object(b, keys, java.util.Arrays.asList(row), i -> t.struct().field(i).type());
            }
            case MAP -> {
                Map<?, ?> m = (Map<?, ?>) v;
                List<String> keys = new ArrayList<>();
                m.keySet().forEach(k -> keys.add(Casts.toText(k, t.keyType())));
                object(b, keys, new ArrayList<>(m.values()), i -> t.element());
            }
        }
    }

    private static void object(VariantBuilder b, List<String> keys, List<Object> values, java.util.function.IntFunction<DataType> types) {
        int start = b.getWritePos();
        ArrayList<VariantBuilder.FieldEntry> fields = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            if (!seen.add(keys.get(i))) {
                throw Failure.of("VARIANT_DUPLICATE_KEY", "the key '" + keys.get(i) + "' is written twice in one VARIANT object");
            }
            int id = b.addKey(keys.get(i));
            fields.add(new VariantBuilder.FieldEntry(keys.get(i), id, b.getWritePos() - start));
            append(b, values.get(i), types.apply(i));
        }
        b.finishWritingObject(start, fields);
    }
}
