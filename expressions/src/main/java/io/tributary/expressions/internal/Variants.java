package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.types.variant.Variant;

/**
 * Spark's VARIANT type as far as expressions use it: a value is Spark's own {@link Variant} (its value and metadata
 * bytes, built by spark-variant's {@code VariantBuilder}). A VARIANT lives inside an expression, as an interval does:
 * a table or a topic cannot hold one yet, so a select item of a VARIANT type is refused and the user writes
 * {@code to_json(...)} or a cast. The type is marked in {@link DataType}'s record by a BINARY of precision -2, which
 * no column has.
 */
public final class Variants {
    /** The VARIANT type. */
    public static final DataType TYPE = new DataType(Kind.BINARY, -2, 0, null, null);
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
        if (t == null) {
            return false;
        }
        if (isVariant(t)) {
            return true;
        }
        return switch (t.kind()) {
            case ARRAY -> holdsVariant(t.element());
            case MAP -> holdsVariant(t.keyType()) || holdsVariant(t.element());
            case STRUCT -> t.struct().fields().stream().anyMatch(f -> holdsVariant(f.type()));
            default -> false;
        };
    }

    /** A VARIANT's JSON text, as Spark's {@code to_json} and {@code CAST(v AS STRING)} write it (time zone UTC). */
    public static String json(Object v) {
        return ((Variant) v).toJson(ZoneOffset.UTC);
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
