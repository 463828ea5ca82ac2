package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;

/**
 * Spark 4.2's {@code variant_explode(v)} and {@code variant_explode_outer(v)}: a row {@code (pos, key, value)} per field of a
 * VARIANT object (in the object's order, by key) or per element of a VARIANT array ({@code key} null), {@code value} a VARIANT;
 * no row for NULL or another value, where the {@code _outer} form makes one row of nulls (for an empty object or array too).
 */
final class VariantExplode {
    private VariantExplode() {
    }

    static Generator bind(Schema input, String source, Node.Call call, boolean outer) {
        String name = call.name().toLowerCase(Locale.ROOT);
        if (call.args().size() != 1) {
            throw ExpressionErrors.wrongArity(source, call.position(), name, "1", call.args().size(), name + "(v VARIANT)");
        }
        Bound arg = new Analyzer(input, source).resolve(call.args().get(0));
        if (!Variants.isVariant(arg.type())) {
            throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] '"
                    + arg.text() + "' is " + Types.name(arg.type()) + ", and " + name + " takes a VARIANT: parse_json(" + arg.text() + ")");
        }
        List<Field> fields = List.of(new Field("pos", DataType.INT, outer), new Field("key", DataType.STRING, true),
                new Field("value", Variants.TYPE, outer));
        return new Generator(Generator.Shape.VARIANT_EXPLODE, outer, false, List.of(arg), fields);
    }

    /** The rows of {@code value} (a {@link Variant} or null). */
    static List<Object[]> rows(Object value, boolean outer) {
        List<Object[]> out = new ArrayList<>();
        if (value instanceof Variant v && v.getType() == VariantUtil.Type.OBJECT) {
            for (int i = 0; i < v.objectSize(); i++) {
                Variant.ObjectField f = v.getFieldAtIndex(i);
                out.add(new Object[] {i, f.key, f.value});
            }
        } else if (value instanceof Variant v && v.getType() == VariantUtil.Type.ARRAY) {
            for (int i = 0; i < v.arraySize(); i++) {
                out.add(new Object[] {i, null, v.getElementAtIndex(i)});
            }
        }
        if (out.isEmpty() && outer) {
            out.add(new Object[3]);
        }
        return out;
    }
}
