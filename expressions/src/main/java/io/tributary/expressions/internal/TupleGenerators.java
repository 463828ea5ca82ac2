package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The generators of several values, Spark's {@code stack(n, v1, v2, ...)} (the values spread over n rows, row by row, of
 * ceil(values / n) columns {@code col0}, {@code col1}..., nulls after the last value) and {@code json_tuple(json, name, ...)}
 * (one row of the JSON object's named top-level fields as text, {@code c0}, {@code c1}...).
 */
final class TupleGenerators {
    private TupleGenerators() {
    }

    static Generator bind(Schema input, String source, Node.Call call, boolean outer) {
        String name = call.name().toLowerCase(java.util.Locale.ROOT);
        Analyzer analyzer = new Analyzer(input, source);
        List<Bound> args = call.args().stream().map(analyzer::resolve).toList();
        if (name.equals("stack")) {
            return stack(source, call, args, outer);
        }
        if (args.size() < 2) {
            throw ExpressionErrors.wrongArity(source, call.position(), name, "2 or more", args.size(),
                    "json_tuple(json STRING, name STRING, ...)");
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Bound a = args.get(i);
            if (!Types.is(a.type(), Kind.STRING)) {
                throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "[DATATYPE_MISMATCH.NON_STRING_TYPE] '"
                        + a.text() + "' is " + Types.name(a.type()) + ", and json_tuple takes STRINGs (the JSON, then field names)");
            }
            if (i > 0) {
                fields.add(new Field("c" + (i - 1), DataType.STRING, true));
            }
        }
        return new Generator(Generator.Shape.JSON_TUPLE, outer, false, args, List.copyOf(fields));
    }

    private static Generator stack(String source, Node.Call call, List<Bound> args, boolean outer) {
        String signature = "stack(n INT literal, value, ...)";
        if (args.size() < 2) {
            throw ExpressionErrors.wrongArity(source, call.position(), "stack", "2 or more", args.size(), signature);
        }
        if (!(args.get(0) instanceof Bound.Literal n) || !Types.is(n.type(), Kind.INT) || n.value() == null) {
            throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the number"
                    + " of rows '" + args.get(0).text() + "' must be an INT literal: " + signature);
        }
        int rows = (Integer) n.value();
        if (rows <= 0) {
            throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] the number"
                    + " of rows must be positive, not " + rows);
        }
        List<Bound> values = args.subList(1, args.size());
        int width = (values.size() + rows - 1) / rows;
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            DataType type = null;
            for (int i = c; i < values.size(); i += width) {
                DataType t = values.get(i).type();
                if (t != null && type == null) {
                    type = t;
                } else if (t != null && !t.equals(type)) {
                    throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "[DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES]"
                            + " column " + c + " holds " + values.get(c).text() + " (" + Types.name(type) + ") and " + values.get(i).text()
                            + " (" + Types.name(t) + "); cast them to one type");
                }
            }
            if (type == null) {
                throw ExpressionErrors.voidColumn(call.text());
            }
            fields.add(new Field("col" + c, type, true));
        }
        return new Generator(Generator.Shape.STACK, outer, false, args, List.copyOf(fields));
    }

    /** stack's rows of {@code values} (n first, then the values) {@code width} wide. */
    static List<Object[]> stack(Object[] values, int width) {
        int rows = (Integer) values[0];
        List<Object[]> out = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[width];
            int from = 1 + r * width;
            if (from < values.length) {
                System.arraycopy(values, from, row, 0, Math.min(width, values.length - from));
            }
            out.add(row);
        }
        return out;
    }

    /**
     * json_tuple's one row of {@code values} (the JSON text, then the field names) as Spark's JsonTuple reads it: the
     * top-level fields by name (the last of a repeated name), a string's text without quotes, another value as JSON; all
     * nulls for null, for text that is not a JSON object, or that fails to parse before the object closes.
     */
    static List<Object[]> jsonTuple(Object[] values) {
        Object[] row = new Object[values.length - 1];
        List<Object[]> out = List.<Object[]>of(row);
        if (values[0] == null) {
            return out;
        }
        List<Object> names = Arrays.asList(values).subList(1, values.length);
        try (JsonParser p = JsonFunctions.JSON.createParser((String) values[0])) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return out;
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t == null) {
                    return List.<Object[]>of(new Object[row.length]);
                }
                if (t == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    int idx = names.indexOf(field);
                    if (idx >= 0 && p.nextToken() != JsonToken.VALUE_NULL) {
                        String value = text(p);
                        for (; idx >= 0; idx = indexOf(names, field, idx + 1)) {
                            row[idx] = value;
                        }
                    }
                }
                p.skipChildren();
            }
            return out;
        } catch (IOException e) {
            return List.<Object[]>of(new Object[row.length]);
        }
    }

    private static int indexOf(List<Object> names, String field, int from) {
        for (int i = from; i < names.size(); i++) {
            if (field.equals(names.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String text(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonFunctions.JSON.createGenerator(out)) {
            g.copyCurrentStructure(p);
        }
        return out.toString();
    }
}
