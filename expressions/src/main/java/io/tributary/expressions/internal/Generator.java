package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One of Spark's generators, which make 0..n rows of one value: {@code explode} (an array's elements as {@code col}, a map's
 * entries as {@code key}, {@code value}), {@code posexplode} (the same after {@code pos}, from 0), {@code inline} (an array of
 * structs as the structs' fields), and their {@code _outer} forms, which make one row of nulls where the array or map is null
 * or empty. A null struct of {@code inline} is a row of nulls, as in Spark. {@code stack(n, v...)} spreads its values over n rows
 * ({@code col0}, {@code col1}...), {@code json_tuple(json, name...)} gives the named fields of a JSON object as text in one
 * row ({@code c0}, {@code c1}...); both are in {@link TupleGenerators}. {@code variant_explode(v)} gives a VARIANT object's
 * fields or array's elements as {@code pos}, {@code key}, {@code value} ({@link VariantExplode}).
 */
public final class Generator {
    enum Shape { EXPLODE, POSEXPLODE, INLINE, STACK, JSON_TUPLE, VARIANT_EXPLODE }

    /** One generator as docs/transform.md lists it: its Spark name, its argument, the columns it makes unnamed, its rows. */
    public record Doc(String name, String argument, String columns, String rows) {
    }

    private static final List<Doc> DOCS = List.of(
            new Doc("explode", "ARRAY or MAP", "`col`; a MAP's `key`, `value`", "one per element (entry), in order; none for null or empty"),
            new Doc("explode_outer", "ARRAY or MAP", "as `explode`", "as `explode`, and one of nulls for null or empty"),
            new Doc("posexplode", "ARRAY or MAP", "`pos` (INT, from 0), then `explode`'s", "as `explode`"),
            new Doc("posexplode_outer", "ARRAY or MAP", "as `posexplode`", "as `explode_outer` (`pos` null on the row of nulls)"),
            new Doc("inline", "ARRAY of STRUCTs", "the struct's fields", "one per element, a null element a row of nulls; none for null or empty"),
            new Doc("inline_outer", "ARRAY of STRUCTs", "as `inline`", "as `inline`, and one of nulls for null or empty"),
            new Doc("stack", "n (an INT literal), then values", "`col0`, `col1`... (ceil(values / n) of them), each the type of its"
                    + " values (NULL fits any)", "n: the values in row order, nulls after the last"),
            new Doc("json_tuple", "a JSON object as STRING, then field names (STRINGs)", "`c0`, `c1`..., STRINGs",
                    "one: each field as text (an object or array as JSON), null where absent or JSON null; nulls for null or text"
                            + " that is not a JSON object"),
            new Doc("variant_explode", "VARIANT; a table function only (`FROM source, LATERAL variant_explode(v) e`)",
                    "`pos` (INT, from 0), `key` (STRING, null for an array's element), `value` (VARIANT)",
                    "one per field of an object (by key) or element of an array; none for null or another value"),
            new Doc("variant_explode_outer", "VARIANT", "as `variant_explode`", "as `variant_explode`, and one of nulls for null, an"
                    + " empty object or array, or another value"));

    private static final Set<String> NAMES = Set.copyOf(DOCS.stream().map(Doc::name).toList());

    /** Every generator, as docs/transform.md's table of generators lists them. */
    public static List<Doc> docs() {
        return DOCS;
    }

    private final Shape shape;
    private final boolean outer;
    private final boolean map;
    private final List<Bound> args;
    private final List<Field> fields;

    Generator(Shape shape, boolean outer, boolean map, List<Bound> args, List<Field> fields) {
        this.shape = shape;
        this.outer = outer;
        this.map = map;
        this.args = args;
        this.fields = fields;
    }

    /** Where a generator is called: a select item, a LATERAL VIEW, or a table function of FROM ({@code , LATERAL f(...) e}). */
    public enum Form { SELECT, LATERAL_VIEW, TABLE_FUNCTION }

    /** Whether {@code name} (as parsed, lower case) is a generator's. */
    public static boolean isGenerator(String name) {
        return NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /** The first generator call in {@code node} (itself included), by position; null when there is none. */
    public static Node.Call find(Node node) {
        if (node instanceof Node.Call c) {
            if (isGenerator(c.name())) {
                return c;
            }
            return first(c.args());
        } else if (node instanceof Node.Cast c) {
            return find(c.child());
        } else if (node instanceof Node.Field f) {
            return find(f.child());
        } else if (node instanceof Node.Case c) {
            List<Node> all = new ArrayList<>(c.conditions());
            all.addAll(c.values());
            if (c.otherwise() != null) {
                all.add(c.otherwise());
            }
            return first(all);
        }
        return null;
    }

    private static Node.Call first(List<Node> nodes) {
        Node.Call found = null;
        for (Node n : nodes) {
            Node.Call c = find(n);
            if (c != null && (found == null || c.position() < found.position())) {
                found = c;
            }
        }
        return found;
    }

    /**
     * Resolves {@code call} over {@code input}, called in {@code form}; {@code outer} adds Spark's {@code OUTER} of a lateral view to
     * the name's own.
     * Its columns are named {@code aliases} (as many as it makes), or Spark's names without any.
     */
    public static Generator bind(Schema input, String source, Node.Call call, boolean outer, List<String> aliases, Form form) {
        String name = call.name().toLowerCase(Locale.ROOT);
        if (name.startsWith("variant_explode") && form != Form.TABLE_FUNCTION) { // Spark 4.2 has it as a table function only
            throw form == Form.SELECT ? ExpressionErrors.notScalarFunction(source, call.position(), name)
                    : ExpressionErrors.notAGenerator(source, call.position(), name);
        }
        boolean isOuter = outer || name.endsWith("_outer");
        if (name.equals("stack") || name.equals("json_tuple")) {
            return named(TupleGenerators.bind(input, source, call, isOuter), source, call, aliases, form);
        }
        if (name.startsWith("variant_explode")) {
            return named(VariantExplode.bind(input, source, call, isOuter), source, call, aliases, form);
        }
        Shape shape = name.startsWith("posexplode") ? Shape.POSEXPLODE : name.startsWith("inline") ? Shape.INLINE : Shape.EXPLODE;
        String signature = shape == Shape.INLINE ? name + "(array<struct>)" : name + "(array | map)";
        if (call.args().size() != 1) {
            throw ExpressionErrors.wrongArity(source, call.position(), name, "1", call.args().size(), signature);
        }
        Bound arg = new Analyzer(input, source).resolve(call.args().get(0));
        DataType t = arg.type();
        boolean isMap = Types.is(t, Kind.MAP);
        boolean array = Types.is(t, Kind.ARRAY);
        if (shape == Shape.INLINE ? !(array && t.element().kind() == Kind.STRUCT) : !(array || isMap)) {
            throw ExpressionErrors.typeMismatch(source, call.position(), call.text(), "'" + arg.text() + "' is " + Types.name(t)
                    + ", and " + name + " takes " + (shape == Shape.INLINE ? "an ARRAY of STRUCTs" : "an ARRAY or a MAP"));
        }
        List<Field> fields = new ArrayList<>();
        if (shape == Shape.POSEXPLODE) {
            fields.add(new Field("pos", DataType.INT, isOuter));
        }
        if (shape == Shape.INLINE) {
            for (Field f : t.element().struct().fields()) {
                fields.add(new Field(f.name(), f.type(), true));
            }
        } else if (isMap) {
            fields.add(new Field("key", t.keyType(), isOuter));
            fields.add(new Field("value", t.valueType(), true));
        } else {
            fields.add(new Field("col", t.element(), true));
        }
        return named(new Generator(shape, isOuter, isMap, List.of(arg), List.copyOf(fields)), source, call, aliases, form);
    }

    /** {@code g} with its columns named {@code aliases} (none: its own names); as many as it makes, else Spark's refusal. */
    private static Generator named(Generator g, String source, Node.Call call, List<String> aliases, Form form) {
        if (aliases.isEmpty()) {
            return g;
        }
        if (aliases.size() != g.fields.size() && form == Form.TABLE_FUNCTION) {
            throw ExpressionErrors.tableFunctionAliases(source, call.position(), call.text(), g.fields.stream().map(Field::name).toList(),
                    aliases);
        }
        if (aliases.size() != g.fields.size()) {
            throw ExpressionErrors.generatorAliases(source, call.position(), call.text(), g.fields.stream().map(Field::name).toList(),
                    aliases);
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < aliases.size(); i++) {
            Field f = g.fields.get(i);
            fields.add(new Field(aliases.get(i), f.type(), f.nullable()));
        }
        return new Generator(g.shape, g.outer, g.map, g.args, List.copyOf(fields));
    }

    /** The arguments, typed, evaluated per row for {@link #rows}. */
    public List<Bound> args() {
        return args;
    }

    /** The columns each row it makes has, in order. */
    public List<Field> fields() {
        return fields;
    }

    /** The rows of the arguments' values {@code values} (for one input row), each {@link #fields()} wide, in Spark's order. */
    public List<Object[]> rows(Object[] values) {
        if (shape == Shape.STACK) {
            return TupleGenerators.stack(values, fields.size());
        }
        if (shape == Shape.JSON_TUPLE) {
            return TupleGenerators.jsonTuple(values);
        }
        if (shape == Shape.VARIANT_EXPLODE) {
            return VariantExplode.rows(values[0], outer);
        }
        Object value = values[0];
        int width = fields.size();
        int size = value == null ? 0 : map ? ((Map<?, ?>) value).size() : ((List<?>) value).size();
        if (size == 0) {
            return outer ? Collections.singletonList(new Object[width]) : List.of();
        }
        List<Object[]> out = new ArrayList<>(size);
        int pos = 0;
        if (map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                out.add(shape == Shape.POSEXPLODE ? new Object[] {pos++, e.getKey(), e.getValue()} : new Object[] {e.getKey(), e.getValue()});
            }
            return out;
        }
        for (Object element : (List<?>) value) {
            if (shape == Shape.INLINE) {
                out.add(element == null ? new Object[width] : ((Object[]) element).clone());
            } else {
                out.add(shape == Shape.POSEXPLODE ? new Object[] {pos++, element} : new Object[] {element});
            }
        }
        return out;
    }
}
