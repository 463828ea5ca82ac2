package io.tributary.expressions;

import io.tributary.expressions.internal.BatchClock;
import io.tributary.expressions.internal.FunctionRegistry;
import io.tributary.expressions.internal.Generator;
import io.tributary.expressions.internal.Node;
import io.tributary.expressions.internal.Parsing;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A query's lateral views ({@code LATERAL VIEW explode(tags) t AS tag}) and table functions of FROM ({@code FROM source, LATERAL
 * explode(tags) t}, {@code [LEFT] JOIN LATERAL explode(s.tags) t [ON ...]}), bound in order over the input: each joins a row
 * with the rows its generator makes of it, its columns after the row's. Spark runs a table function of FROM as a lateral join of
 * a {@code Generate}: the generator's rows, those its ON keeps, and for a LEFT join a row of nulls where it keeps none.
 */
final class Laterals {
    /** Spark's table functions that are no generator: rows of their own, not of each row. */
    private static final Set<String> OTHER_TABLE_FUNCTIONS = Set.of("range", "collations", "sql_keywords", "python_worker_logs");

    /** A row of no column a query can name (a schema has one column at least). */
    private static final Schema NO_COLUMNS = new Schema(List.of(new Field("\u0000", DataType.INT, true)));

    /** One lateral join: its generator and arguments, the join's condition (null for none), and whether it is a LEFT join. */
    private record Lateral(Generator generator, Expression[] args, Expression on, boolean leftJoin) {
    }

    private final List<Lateral> laterals;
    /** Each view's name (lower case) to its columns, for {@code t.tag} and {@code t.*}. */
    final Map<String, List<String>> views;
    /** Each view's name (lower case) to the place of its first column in the row. */
    final Map<String, Integer> starts;
    /** The row the views make: the input's columns, then each view's. */
    final Schema output;

    /** The places of the columns named in the row as {@code view.column}, to their own names. */
    private final Map<Integer, String> renamed;

    private Laterals(List<Lateral> laterals, Map<String, List<String>> views, Map<String, Integer> starts, Schema output,
            Map<Integer, String> renamed) {
        this.laterals = laterals;
        this.renamed = renamed;
        this.views = views;
        this.starts = starts;
        this.output = output;
    }

    /** The views {@code texts} (each as {@link Parsing#lateralView} reads it) over {@code input}, its columns qualified by {@code alias}. */
    static Laterals bind(Schema input, String alias, List<String> texts, BatchClock clock) {
        List<Lateral> laterals = new ArrayList<>();
        Map<String, List<String>> views = new HashMap<>();
        Map<String, Integer> starts = new HashMap<>();
        Map<Integer, String> renamed = new HashMap<>();
        int width = input.size();
        for (String text : texts == null ? List.<String>of() : texts) {
            Parsing.LateralView v = Parsing.lateralView(text, alias, views);
            String name = v.generator().name();
            if (!Generator.isGenerator(name)) {
                if (v.tableFunction() && OTHER_TABLE_FUNCTIONS.contains(name)) {
                    throw ExpressionErrors.tableFunctionNotGenerator(text, v.generator().position(), name);
                }
                if (v.tableFunction() && FunctionRegistry.get(name) != null) {
                    throw ExpressionErrors.notTableFunction(text, v.generator().position(), name);
                }
                throw ExpressionErrors.unknownFunction(text, v.generator().position(), name);
            }
            Generator g = generator(input, text, v);
            String table = v.table().toLowerCase(Locale.ROOT);
            List<Field> fields = new ArrayList<>();
            for (Field f : g.fields()) {
                int taken = input.indexOf(f.name());
                if (taken >= 0 && taken < width) {
                    throw ExpressionErrors.lateralColumnTaken(text, f.name());
                }
                // a name an earlier view's column has: t.col and u.col are both col, told apart by their views' names
                String column = taken >= 0 ? table + "." + f.name() : f.name();
                if (taken >= 0) {
                    renamed.put(input.size() + fields.size(), f.name());
                }
                fields.add(new Field(column, f.type(), f.nullable() || v.leftJoin() && v.on() != null));
            }
            views.put(table, fields.stream().map(Field::name).toList());
            starts.put(table, input.size());
            List<Field> widened = new ArrayList<>(input.fields());
            widened.addAll(fields);
            input = new Schema(widened);
            Expression on = null;
            if (v.on() != null) {
                String unordered = unorderedColumn(v.generator(), input, input.size() - fields.size());
                if (unordered != null) {
                    throw ExpressionErrors.lateralOnUnordered(text, v.generator().position(), v.generator().text(), unordered);
                }
                Node.Call nested = Generator.find(Parsing.expression(v.on(), alias, views));
                if (nested != null) {
                    throw ExpressionErrors.generatorOutsideSelect(v.on(), nested.position(), nested.text());
                }
                on = Expression.compile(input, v.on(), alias, views, clock);
                if (on.type() != null && on.type().kind() != DataType.Kind.BOOLEAN) {
                    throw ExpressionErrors.notBoolean(v.on(), on.type().ddl());
                }
            }
            // a LEFT join without ON is Spark 4.2's plain join of the generator (OptimizeOneRowRelationSubquery): no row of nulls
            laterals.add(new Lateral(g, g.args().stream().map(a -> Expression.of(v.generator().text(), a)).toArray(Expression[]::new),
                    on, v.leftJoin() && on != null));
        }
        return new Laterals(List.copyOf(laterals), views, starts, input, renamed);
    }

    /**
     * The generator of {@code v} over {@code input}; a table function without LATERAL reads no column of the row (Spark resolves
     * its arguments without the FROM's other items), so it is bound over no columns, and refused where it reads one.
     */
    private static Generator generator(Schema input, String text, Parsing.LateralView v) {
        Generator.Form form = v.tableFunction() ? Generator.Form.TABLE_FUNCTION : Generator.Form.LATERAL_VIEW;
        if (v.lateral()) {
            return Generator.bind(input, text, v.generator(), v.outer(), v.columns(), form);
        }
        try {
            return Generator.bind(NO_COLUMNS, text, v.generator(), v.outer(), v.columns(), form);
        } catch (TributaryException noColumns) {
            try {
                Generator.bind(input, text, v.generator(), v.outer(), v.columns(), form);
            } catch (TributaryException e) {
                throw noColumns;
            }
            throw ExpressionErrors.tableFunctionNotLateral(text, v.generator().position(), v.generator().text());
        }
    }

    /**
     * The first column among the first {@code width} of {@code row} that {@code call}'s arguments read and that is or holds a MAP
     * or VARIANT, or null: Spark joins such a function with ON by decorrelating it, which takes no such column.
     */
    private static String unorderedColumn(Node.Call call, Schema row, int width) {
        List<String> read = new ArrayList<>();
        call.args().forEach(a -> columns(a, read));
        for (String name : read) {
            int i = row.indexOf(name);
            if (i >= 0 && i < width && unordered(row.field(i).type())) {
                return row.field(i).name();
            }
        }
        return null;
    }

    private static void columns(Node n, List<String> out) {
        if (n instanceof Node.Column c) {
            out.add(c.names().get(0));
        } else if (n instanceof Node.Call c) {
            c.args().forEach(a -> columns(a, out));
        } else if (n instanceof Node.Cast c) {
            columns(c.child(), out);
        } else if (n instanceof Node.Field f) {
            columns(f.child(), out);
        } else if (n instanceof Node.Lambda l) {
            columns(l.body(), out);
        } else if (n instanceof Node.Case c) {
            c.conditions().forEach(x -> columns(x, out));
            c.values().forEach(x -> columns(x, out));
            if (c.otherwise() != null) {
                columns(c.otherwise(), out);
            }
        }
    }

    private static boolean unordered(DataType t) {
        if (t == null) {
            return false;
        }
        return switch (t.kind()) {
            case MAP -> true;
            case ARRAY -> unordered(t.element());
            case STRUCT -> t.struct().fields().stream().anyMatch(f -> unordered(f.type()));
            default -> t.holdsVariant();
        };
    }

    /** The column at {@code index} of {@link #output} as {@code *} shows it: a view's column by the view's name for it. */
    Field shown(int index) {
        Field f = output.field(index);
        String name = renamed.get(index);
        return name == null ? f : new Field(name, f.type(), f.nullable());
    }

    boolean isEmpty() {
        return laterals.isEmpty();
    }

    /** The rows the views make of {@code row}, in Spark's order: each view's rows within the rows of the views before it. */
    List<Object[]> rows(Object[] row) {
        List<Object[]> made = List.<Object[]>of(row);
        for (Lateral v : laterals) {
            List<Object[]> next = new ArrayList<>();
            for (Object[] r : made) {
                Object[] values = new Object[v.args().length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = v.args()[i].eval(r);
                }
                boolean kept = false;
                for (Object[] g : v.generator().rows(values)) {
                    Object[] joined = Arrays.copyOf(r, r.length + g.length);
                    System.arraycopy(g, 0, joined, r.length, g.length);
                    if (v.on() == null || Boolean.TRUE.equals(v.on().eval(joined))) {
                        next.add(joined);
                        kept = true;
                    }
                }
                if (!kept && v.leftJoin()) {
                    next.add(Arrays.copyOf(r, r.length + v.generator().fields().size()));
                }
            }
            made = next;
        }
        return made;
    }
}
