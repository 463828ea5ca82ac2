package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.spark.types.variant.Variant;

/**
 * {@code schema_of_variant} as Spark 4.2's {@code SchemaOfVariant} computes it: a JSON null is VOID, a whole number
 * BIGINT, a decimal DECIMAL of its own digits, an object an {@code OBJECT<...>} of its keys in order, an array an
 * {@code ARRAY} of its elements' wider type (VARIANT when they have none).
 */
final class VariantSchemas {
    private VariantSchemas() {
    }

    /** The type of {@code v}'s value; null stands for VOID (a JSON null). */
    static DataType of(Variant v) {
        return switch (v.getType()) {
            case NULL -> null;
            case BOOLEAN -> DataType.BOOLEAN;
            case LONG -> DataType.LONG;
            case STRING, UUID -> DataType.STRING;
            case DOUBLE -> DataType.DOUBLE;
            case FLOAT -> DataType.FLOAT;
            case DECIMAL -> {
                BigDecimal d = VariantCasts.decimal(v);
                yield DataType.decimal(Math.max(d.precision(), d.scale()), d.scale());
            }
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case TIMESTAMP_NTZ -> DataType.TIMESTAMP_NTZ;
            case BINARY -> DataType.BINARY;
            case OBJECT -> {
                List<Field> fields = new ArrayList<>();
                for (int i = 0; i < v.objectSize(); i++) {
                    Variant.ObjectField f = v.getFieldAtIndex(i);
                    fields.add(new Field(f.key, orVoid(of(f.value)), true));
                }
                yield object(fields);
            }
            case ARRAY -> {
                DataType element = null;
                boolean any = false;
                for (int i = 0; i < v.arraySize(); i++) {
                    DataType e = of(v.getElementAtIndex(i));
                    element = any ? merge(element, e) : e;
                    any = true;
                }
                yield DataType.array(orVoid(element));
            }
        };
    }

    private static DataType orVoid(DataType t) {
        return t == null ? Types.VOID : t;
    }

    /** The type two values of an array meet in; VARIANT when they have none. */
    static DataType merge(DataType a, DataType b) {
        if (a == null || Types.VOID.equals(a)) {
            return b;
        }
        if (b == null || Types.VOID.equals(b) || a.equals(b)) {
            return a;
        }
        if (Types.numeric(a) && Types.numeric(b)) {
            return Types.common(a, b);
        }
        if (Types.is(a, Kind.ARRAY) && Types.is(b, Kind.ARRAY)) {
            return DataType.array(orVoid(merge(a.element(), b.element())));
        }
        if (Types.is(a, Kind.STRUCT) && Types.is(b, Kind.STRUCT)) { // the keys of both, in order; a key of both of their merged type
            TreeMap<String, DataType> fields = new TreeMap<>();
            for (DataType s : List.of(a, b)) {
                for (Field f : s.struct().fields()) {
                    if (!f.name().isEmpty()) {
                        fields.merge(f.name(), f.type(), VariantSchemas::merge);
                    }
                }
            }
            return object(fields.entrySet().stream().map(e -> new Field(e.getKey(), e.getValue(), true)).toList());
        }
        return Variants.TYPE;
    }

    /** An OBJECT of {@code fields}; {@code OBJECT<>} (a struct of one unnamed VOID field, no column's type) when there are none. */
    private static DataType object(List<Field> fields) {
        return DataType.struct(new Schema(fields.isEmpty() ? List.of(new Field("", Types.VOID, true)) : fields));
    }

    /** The type as schema_of_variant writes it: STRUCT as {@code OBJECT}, VOID for a JSON null. */
    static String sql(DataType t) {
        if (t == null || Types.VOID.equals(t)) {
            return "VOID";
        }
        if (Variants.isVariant(t)) {
            return "VARIANT";
        }
        return switch (t.kind()) {
            case ARRAY -> "ARRAY<" + sql(t.element()) + ">";
            case STRUCT -> {
                if (t.struct().size() == 1 && t.struct().field(0).name().isEmpty()) {
                    yield "OBJECT<>";
                }
                StringBuilder sb = new StringBuilder("OBJECT<");
                for (Field f : t.struct().fields()) {
                    sb.append(sb.length() > "OBJECT<".length() ? ", " : "").append(Schema.quote(f.name())).append(": ").append(sql(f.type()));
                }
                yield sb.append('>').toString();
            }
            default -> Types.name(t);
        };
    }
}
