package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.schema.VariantValue;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.types.variant.Variant;

/**
 * Spark's VARIANT type as far as expressions use it: a value is Spark's own {@link Variant} (its value and metadata
 * bytes, built by spark-variant's {@code VariantBuilder}). Outside an expression (a row of a topic or a table) the same
 * bytes are the schema module's {@link VariantValue}: a transform's input rows are turned to Spark's values as they come in
 * ({@link #toSpark}) and its output rows back as they go ({@link #toValues}); the bytes are shared, never re-encoded. The type
 * is the schema module's {@link DataType#VARIANT}.
 */
public final class Variants {
    /** The VARIANT type. */
    public static final DataType TYPE = DataType.VARIANT;
    /** VARIANT written as a type inside a type's text (not a field named variant): followed by {@code >}, {@code ,} or the end. */
    private static final Pattern IN_TYPE = Pattern.compile("(?i)(?<![\\w`])variant(?=\\s*(?:[>,]|$|\\s+NOT\\s|\\s+COMMENT\\s))");
    /** What stands for VARIANT while the schema module parses the type's text. */
    private static final String MARK = "__tributary_variant__";

    private Variants() {
    }

    public static boolean isVariant(DataType t) {
        return TYPE.equals(t);
    }

    /** Whether {@code t} is VARIANT or holds one (an array, map or struct of VARIANT). */
    public static boolean holdsVariant(DataType t) {
        return t != null && t.holdsVariant();
    }

    /** Whether a column of {@code schema} is or holds a VARIANT: its rows need {@link #toSpark} and {@link #toValues}. */
    public static boolean holdsVariant(Schema schema) {
        return schema.fields().stream().anyMatch(f -> f.type().holdsVariant());
    }

    /** {@code row} of {@code schema} with its {@link VariantValue}s (at any depth) as Spark's {@link Variant}s; a copy. */
    public static Object[] toSpark(Schema schema, Object[] row) {
        return convert(schema, row, true);
    }

    /** {@code row} of {@code schema} with its Spark {@link Variant}s (at any depth) as {@link VariantValue}s; a copy. */
    public static Object[] toValues(Schema schema, Object[] row) {
        return convert(schema, row, false);
    }

    /** A value of type {@code t} with its Spark {@link Variant}s (at any depth) as {@link VariantValue}s. */
    public static Object toValue(DataType t, Object v) {
        return convert(t, v, false);
    }

    private static Object[] convert(Schema schema, Object[] row, boolean toSpark) {
        Object[] out = row.clone();
        for (int i = 0; i < out.length && i < schema.size(); i++) {
            out[i] = convert(schema.field(i).type(), out[i], toSpark);
        }
        return out;
    }

    private static Object convert(DataType t, Object v, boolean toSpark) {
        if (v == null || !t.holdsVariant()) {
            return v;
        }
        if (isVariant(t)) {
            if (toSpark) {
                return v instanceof VariantValue vv ? new Variant(vv.value(), vv.metadata()) : v;
            }
            return v instanceof Variant sv ? new VariantValue(sv.getValue(), sv.getMetadata()) : v;
        }
        return switch (t.kind()) {
            case STRUCT -> convert(t.struct(), (Object[]) v, toSpark);
            case ARRAY -> {
                List<Object> out = new ArrayList<>(((List<?>) v).size());
                for (Object e : (List<?>) v) {
                    out.add(convert(t.element(), e, toSpark));
                }
                yield out;
            }
            case MAP -> {
                java.util.Map<Object, Object> out = new java.util.LinkedHashMap<>();
                for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
                    out.put(convert(t.keyType(), e.getKey(), toSpark), convert(t.valueType(), e.getValue(), toSpark));
                }
                yield out;
            }
            default -> v;
        };
    }

    /** A VARIANT's JSON text (a Spark {@link Variant} or a {@link VariantValue}), as Spark's {@code to_json} and {@code CAST(v AS STRING)} write it (time zone UTC). */
    public static String json(Object v) {
        Variant variant = v instanceof VariantValue vv ? new Variant(vv.value(), vv.metadata()) : (Variant) v;
        return variant.toJson(ZoneOffset.UTC);
    }

    /**
     * A type's DDL text with VARIANT allowed anywhere in it ({@code VARIANT}, {@code ARRAY<VARIANT>},
     * {@code STRUCT<a: VARIANT>}); the schema module's errors otherwise.
     */
    public static DataType parseType(String text) {
        if (!IN_TYPE.matcher(text).find()) {
            return Schema.parse("x " + text).field(0).type();
        }
        String marked = IN_TYPE.matcher(text).replaceAll("STRUCT<" + MARK + ": INT>");
        return unmark(Schema.parse("x " + marked).field(0).type());
    }

    private static DataType unmark(DataType t) {
        return switch (t.kind()) {
            case STRUCT -> {
                List<Field> fields = t.struct().fields();
                if (fields.size() == 1 && fields.get(0).name().equals(MARK)) {
                    yield TYPE;
                }
                List<Field> out = new ArrayList<>();
                for (Field f : fields) {
                    out.add(new Field(f.name(), unmark(f.type()), f.nullable()));
                }
                yield DataType.struct(new Schema(out));
            }
            case ARRAY -> DataType.array(unmark(t.element()));
            case MAP -> t.key() == null ? DataType.map(unmark(t.element())) : DataType.map(unmark(t.keyType()), unmark(t.element()));
            default -> t;
        };
    }

    /** {@link #parseType} with the schema module's error as a type error naming the text. */
    static DataType parseType(String source, int position, String text) {
        try {
            return parseType(text);
        } catch (TributaryException e) {
            throw ExpressionErrors.badType(source, position, text, e.getMessage());
        }
    }
}
