package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Structs made in an expression, as Spark 4.2 makes them: {@code struct(a, b)} names its fields after the columns (a
 * struct field's own name, a lambda's parameter) and {@code col1}, {@code col2} ... after their positions otherwise;
 * {@code named_struct('a', x, 'b', y)} by the names given. A struct's value is an {@code Object[]} of its fields.
 */
final class StructFunctions {
    private StructFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("struct", 0, -1, "struct(a, b, ...) → STRUCT<a: A, b: B, ...>", "null fields kept; never null itself",
                "a struct of the values, each field named after its column, else col1, col2 ... by its position", (call, args) -> {
                    List<String> names = new ArrayList<>();
                    for (int i = 0; i < args.size(); i++) {
                        names.add(defaultName(args.get(i), i));
                    }
                    return make(call, names, args);
                }));
        add.accept(Fn.custom("named_struct", 2, -1, "named_struct(name STRING, value, ...) → STRUCT<name: ...>",
                "null fields kept; never null itself", "a struct of the values, each named by the text literal before it",
                StructFunctions::named));
    }

    private static Bound named(Analyzer.Call call, List<Bound> args) {
        if (args.size() % 2 != 0) {
            throw call.typeError("[WRONG_NUM_ARGS] named_struct takes names and values in pairs: named_struct('a', 1, 'b', 2)");
        }
        List<String> names = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 0; i < args.size(); i += 2) {
            Bound name = args.get(i);
            if (!(name instanceof Bound.Literal l) || !(l.value() instanceof String s)) {
                throw call.typeError("[DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING] a field name of named_struct is a text"
                        + " literal, and '" + name.text() + "' is not one");
            }
            names.add(s);
            values.add(args.get(i + 1));
        }
        return make(call, names, values);
    }

    private static Bound make(Analyzer.Call call, List<String> names, List<Bound> values) {
        if (values.isEmpty()) {
            throw call.typeError("a struct of no fields (Spark's STRUCT<>) cannot be a column of a table here; give it a field");
        }
        if (names.stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).distinct().count() < names.size()) {
            throw call.typeError("the struct names a field twice (" + String.join(", ", names) + "); give each field its own name with"
                    + " named_struct('a', x, 'b', y)");
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            DataType t = values.get(i).type();
            if (t == null) {
                t = Types.VOID; // Spark's VOID field: inside an expression it meets any type; a table cannot hold it (Transform refuses it)
            }
            fields.add(new Field(names.get(i), t, !NestedTypes.nonNull(values.get(i))));
        }
        return call.applyTolerant(values, DataType.struct(new Schema(fields)), Object[]::clone);
    }

    /** Spark's name of an unnamed field: a column's (a struct field's) name, a lambda parameter's, else col1, col2 ... */
    private static String defaultName(Bound b, int index) {
        if (b instanceof Bound.Column c) {
            return c.path().length == 0 ? c.text() : c.text().substring(c.text().lastIndexOf('.') + 1);
        }
        return "col" + (index + 1);
    }

    /**
     * The index of {@code struct}'s field {@code name} (matched without case) in {@code expression}'s {@code base.name}: refused when
     * it has none, or several (a struct {@code from_csv(text, 'a INT, a INT')} gives: Spark's AMBIGUOUS_REFERENCE_TO_FIELDS).
     */
    static int fieldIndex(String expression, int position, String name, String base, Schema struct) {
        int i = struct.indexOf(name);
        if (i < 0) {
            throw ExpressionErrors.unknownField(expression, position, name, base, struct.fields().stream().map(Field::name).toList());
        }
        if (struct.repeatsAName() && struct.count(name) > 1) {
            throw ExpressionErrors.ambiguousField(expression, position, name, base, struct.count(name));
        }
        return i;
    }

    /** {@code s['name']}: a struct's field by a text literal, as Spark's subscript of a struct; its names matched without case. */
    static Bound subscript(Analyzer.Call call, Bound struct, Bound name) {
        if (!(name instanceof Bound.Literal l) || !(l.value() instanceof String s)) {
            throw call.typeError("a struct's field is named by a text literal (s['name']), and '" + name.text() + "' is not one");
        }
        Schema schema = struct.type().struct();
        int index = schema.indexOf(s);
        if (index < 0) {
            throw call.typeError("[FIELD_NOT_FOUND] '" + struct.text() + "' has no field '" + s + "'; its fields are "
                    + String.join(", ", schema.fields().stream().map(Field::name).toList()));
        }
        if (schema.repeatsAName() && schema.count(s) > 1) {
            throw call.typeError("[AMBIGUOUS_REFERENCE_TO_FIELDS] '" + struct.text() + "' has " + schema.count(s) + " fields named '" + s
                    + "', and a reference to one is ambiguous; give the fields different names in the schema");
        }
        return call.apply(List.of(struct), schema.field(index).type(), (Kernel.Unary) v -> ((Object[]) v)[index]);
    }

    /** Whether values of {@code type} can be compared, or hashed: anything but a MAP, at any depth (Spark has no order of maps). */
    static boolean holdsMap(DataType type) {
        return Types.holds(type, t -> t != null && t.kind() == DataType.Kind.MAP);
    }
}
