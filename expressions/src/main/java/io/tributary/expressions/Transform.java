package io.tributary.expressions;

import io.tributary.expressions.internal.Analyzer;
import io.tributary.expressions.internal.BatchClock;
import io.tributary.expressions.internal.CalendarIntervals;
import io.tributary.expressions.internal.Bound;
import io.tributary.expressions.internal.Generator;
import io.tributary.expressions.internal.Intervals;
import io.tributary.expressions.internal.Node;
import io.tributary.expressions.internal.Parsing;
import io.tributary.expressions.internal.Parsing.SelectItem;
import io.tributary.expressions.internal.Types;
import io.tributary.expressions.internal.Variants;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spark's {@code where(...)} then {@code selectExpr(...)} over rows of an input schema, compiled once:
 * {@link #rows} gives the rows one input row makes. The filter keeps a row only where it is true (not false,
 * not null), as Spark's. Select items may be generators ({@code explode(tags) AS tag}), and a query's
 * {@code LATERAL VIEW}s make their rows before the filter: one row in, 0..n out. Spark's DataFrame column steps may follow the
 * select ({@link ColumnSteps#after}).
 */
public final class Transform {
    private final Schema output;
    private final Laterals lateral;
    private final Expression where;
    private final Expression[] select; // null: the row passes through unchanged
    private final List<Generated> generators; // the select list's generators, in order
    private int hidden; // the input's hidden columns (FileMetadata), which the source adds to each row
    private final BatchClock clock; // the batch's start, which current_timestamp() and its cousins read
    private Transform then; // the column steps (ColumnSteps) over this one's rows; null without
    private Set<Integer> untyped = Set.of(); // the columns of untyped NULLs, a query of a UNION ALL's (compileAs)
    private Schema variantInput; // the input when it or the output holds a VARIANT (Variants: bytes outside, Spark's inside)

    /** A generator of the select list: its arguments, and the place of its first column among the other items' values. */
    private record Generated(Generator generator, Expression[] args, int at) {
    }

    private static Expression[] args(Generator g, Node.Call call) {
        return g.args().stream().map(a -> Expression.of(call.text(), a)).toArray(Expression[]::new);
    }

    /** The rows generator {@code g} makes of {@code row}, its arguments {@code args} evaluated over it. */
    private static List<Object[]> generated(Generator g, Expression[] args, Object[] row) {
        Object[] values = new Object[args.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = args[i].eval(row);
        }
        return g.rows(values);
    }

    private Transform(Schema output, Laterals lateral, Expression where, Expression[] select, List<Generated> generators,
            BatchClock clock) {
        this.output = output;
        this.clock = clock;
        this.lateral = lateral;
        this.where = where;
        this.select = select;
        this.generators = generators;
    }

    /**
     * @param where  a boolean expression, or null for every row
     * @param select select items ({@code *}, {@code expr}, {@code expr AS name}), or null (or empty) for the input's columns
     */
    public static Transform compile(Schema input, String where, List<String> select) {
        return compileAs(input, null, where, select);
    }

    /**
     * As {@link #compile(Schema, String, List)} where the input is named {@code alias} (a query's {@code FROM source s}):
     * {@code s.amt} is its column {@code amt} and {@code s.*} its columns, as Spark resolves them; alias null for none.
     */
    public static Transform compileAs(Schema input, String alias, String where, List<String> select) {
        return compileAs(input, alias, List.of(), where, select);
    }

    /**
     * As {@link #compileAs(Schema, String, String, List)} after the lateral views {@code lateralViews}, each as a query writes it
     * ({@code LATERAL VIEW [OUTER] explode(tags) t AS tag}): their columns follow the input's, for WHERE and the select list.
     */
    public static Transform compileAs(Schema input, String alias, List<String> lateralViews, String where, List<String> select) {
        return compileAs(input, alias, lateralViews, where, select, false);
    }

    /**
     * As {@link #compileAs(Schema, String, List, String, List)}; with {@code untypedNulls} (a query of a {@code UNION ALL}, whose
     * other queries type it) a select item that is always NULL without a type is a column of NULLs, STRING until the union types
     * it, and listed in {@link #untypedColumns()}; without, it is refused.
     */
    public static Transform compileAs(Schema input, String alias, List<String> lateralViews, String where, List<String> select,
            boolean untypedNulls) {
        int sourceWidth = input.size();
        int hidden = FileMetadata.hidden(input); // the last of the source's columns; not in * (nor s.*)
        int visibleWidth = sourceWidth - hidden;
        BatchClock clock = new BatchClock();
        Laterals lateral = Laterals.bind(input, alias, lateralViews, clock);
        Map<String, List<String>> views = lateral.views; // a view's name (lower case) to its columns, for t.tag and t.*
        Map<String, Integer> viewStarts = lateral.starts; // and to the place of its first column in the row
        input = lateral.output;
        Expression filter = null;
        if (where != null && !where.isBlank()) {
            Node.Call g = Generator.find(Parsing.expression(where, alias, views));
            if (g != null) {
                throw ExpressionErrors.generatorOutsideSelect(where, g.position(), g.text());
            }
            filter = Expression.compile(input, where, alias, views, clock);
            DataType t = filter.type();
            if (t != null && t.kind() != DataType.Kind.BOOLEAN) {
                throw ExpressionErrors.notBoolean(where, t.ddl());
            }
        }
        if ((select == null || select.isEmpty()) && hidden == 0) { // a view's column renamed keeps its name in the row (t.col)
            Transform all = new Transform(input, lateral, filter, null, List.of(), clock);
            all.variantInput = Variants.holdsVariant(input) ? input : null;
            return all;
        }
        if (select == null || select.isEmpty()) {
            select = List.of("*"); // the columns without the hidden ones
        }
        List<Field> fields = new ArrayList<>();
        List<Expression> items = new ArrayList<>();
        List<Generated> generators = new ArrayList<>();
        Set<Integer> untyped = new HashSet<>();
        for (String item : select) {
            SelectItem parsed = Parsing.selectItem(item, alias, views);
            if (parsed.star()) {
                String of = parsed.qualifier().size() == 1 ? parsed.qualifier().get(0).toLowerCase(Locale.ROOT) : null;
                boolean ofInput = alias != null && alias.equalsIgnoreCase(of);
                if (!parsed.qualifier().isEmpty() && !ofInput && !views.containsKey(of)) {
                    throw ExpressionErrors.starOfUnknown(item);
                }
                // *: every column; s.*: the source's (before the lateral views'); t.*: the lateral view t's
                int from = views.containsKey(of) && !ofInput ? viewStarts.get(of) : 0;
                int to = parsed.qualifier().isEmpty() ? input.size() : ofInput ? sourceWidth : from + views.get(of).size();
                for (int i = from; i < to; i++) {
                    if (i >= visibleWidth && i < sourceWidth) {
                        continue; // hidden, as Spark's _metadata
                    }
                    Field f = lateral.shown(i);
                    fields.add(f);
                    items.add(Expression.of(f.name(), new Bound.Column(i, new int[0], f.type(), f.name())));
                }
                continue;
            }
            if (parsed.expression() instanceof Node.Call call && Generator.isGenerator(call.name())) {
                List<String> aliases = parsed.alias() != null ? List.of(parsed.alias()) : parsed.aliases();
                Generator generator = Generator.bind(input, item, call, false, aliases, Generator.Form.SELECT);
                generators.add(new Generated(generator, args(generator, call), items.size()));
                fields.addAll(generator.fields());
                continue;
            }
            if (!parsed.aliases().isEmpty()) {
                throw ExpressionErrors.generatorAliases(item, parsed.expression().position(), parsed.expression().text(),
                        List.of(parsed.expression().text()), parsed.aliases());
            }
            Node.Call nested = Generator.find(parsed.expression());
            if (nested != null) {
                throw ExpressionErrors.generatorNested(item, nested.position(), nested.text(), parsed.expression().text());
            }
            Bound bound = new Analyzer(input, item, clock).resolve(parsed.expression());
            if (bound.type() == null && !untypedNulls) {
                throw ExpressionErrors.voidColumn(item);
            }
            if (bound.type() == null) {
                untyped.add(fields.size());
                String name = parsed.alias() != null ? parsed.alias() : defaultName(parsed, bound);
                fields.add(new Field(name, DataType.STRING, true));
                items.add(Expression.of(item, bound));
                continue;
            }
            if (Types.holdsVoid(bound.type())) {
                throw ExpressionErrors.voidInsideColumn(item, Types.name(bound.type()));
            }
            if (Intervals.isInterval(bound.type()) || CalendarIntervals.holdsCalendar(bound.type())) {
                throw ExpressionErrors.intervalColumn(item, Types.name(bound.type()));
            }
            if (io.tributary.expressions.internal.Times.holdsTime(bound.type())) {
                throw ExpressionErrors.timeColumn(item, Types.name(bound.type()));
            }
            if (Types.holdsRepeatedNames(bound.type())) {
                throw ExpressionErrors.repeatedFieldColumn(item, Types.name(bound.type()));
            }
            String name = parsed.alias() != null ? parsed.alias() : defaultName(parsed, bound);
            boolean nullable = !(bound instanceof Bound.Column c && c.path().length == 0 && !input.field(c.index()).nullable());
            fields.add(new Field(name, bound.type(), nullable));
            items.add(Expression.of(item, bound));
        }
        Set<String> seen = new HashSet<>();
        for (Field f : fields) {
            if (!seen.add(f.name().toLowerCase(Locale.ROOT))) {
                throw ExpressionErrors.duplicateColumn(f.name(), String.join(", ", select));
            }
        }
        Transform made = new Transform(new Schema(fields), lateral, filter, items.toArray(Expression[]::new),
                List.copyOf(generators), clock);
        made.hidden = hidden;
        made.untyped = Set.copyOf(untyped);
        made.variantInput = Variants.holdsVariant(input) || Variants.holdsVariant(made.output) ? input : null;
        return made;
    }

    /** A column keeps its name (a struct field its own); any other expression is named by its text, as written. */
    private static String defaultName(SelectItem item, Bound bound) {
        if (bound instanceof Bound.Column c) {
            if (item.expression() instanceof Node.Column written && written.text().indexOf('`') >= 0) {
                return written.names().get(written.names().size() - 1); // `a.b` is the column a.b, s.`a.b` too
            }
            String t = c.text();
            return t.substring(t.lastIndexOf('.') + 1);
        }
        return item.expression().text();
    }

    /** As {@link #compile}, a refusal prefixed with the setting {@code key} it was written in. */
    public static Transform compile(Schema input, String where, List<String> select, String key) {
        try {
            return compile(input, where, select);
        } catch (ExpressionException e) {
            throw e;
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }

    /** This transform, then {@code next} over its rows (a new transform; this one is not changed). */
    Transform followedBy(Transform next) {
        Transform t = new Transform(output, lateral, where, select, generators, clock);
        t.hidden = hidden;
        t.untyped = untyped;
        t.variantInput = variantInput;
        t.then = then == null ? next : then.followedBy(next);
        return t;
    }

    /** The columns (0-based) of select items that are always NULL without a type, STRING here (compileAs's {@code untypedNulls}). */
    public Set<Integer> untypedColumns() {
        return untyped;
    }

    public Schema output() {
        return then == null ? output : then.output();
    }

    /**
     * How many hidden columns ({@link FileMetadata}) the transform reads after the source's columns: the source gives each row
     * them ({@link FileMetadata#widen}) before {@link #apply} or {@link #rows}; 0 for none.
     */
    public int hiddenColumns() {
        return hidden;
    }

    /** Starts a batch: the next rows read {@code batchStart} as {@code current_timestamp()} and its cousins, one value for all. */
    public void startBatch(Instant batchStart) {
        clock.start(batchStart);
        if (then != null) {
            then.startBatch(batchStart);
        }
    }

    /** Whether an expression reads the batch's start ({@code current_timestamp()} and its cousins): its rows belong to their batch. */
    public boolean readsBatchTime() {
        return clock.read() || then != null && then.readsBatchTime();
    }

    /** Whether rows pass through as they are (no lateral view, no filter, no select). */
    public boolean identity() {
        return lateral.isEmpty() && where == null && select == null && then == null;
    }

    /** Whether a row may make several rows (a lateral view or a generator in the select list); else {@link #apply} serves. */
    public boolean generates() {
        return !lateral.isEmpty() || !generators.isEmpty() || then != null && then.generates();
    }

    /**
     * The output row, or null when the filter drops {@code row}; {@link ExpressionException} for a row Spark would fail on.
     * Only for a transform that does not {@link #generates()}.
     */
    public Object[] apply(Object[] row) {
        if (generates()) {
            throw new IllegalStateException("a transform with a generator makes rows(row), not one row");
        }
        row = variantInput == null ? row : Variants.toSpark(variantInput, row);
        if (where != null && !Boolean.TRUE.equals(where.eval(row))) {
            return null;
        }
        Object[] out = select == null ? row : project(row);
        return then != null ? then.apply(out) : variantInput == null ? out : Variants.toValues(output, out);
    }

    /**
     * The rows {@code row} makes, in Spark's order: the lateral views' rows (each view's in its array's or map's order), those
     * the filter keeps, each projected (a generator's rows in its order); {@link ExpressionException} when an expression
     * fails on one of them, and then none is given.
     */
    public List<Object[]> rows(Object[] row) {
        if (!generates()) {
            Object[] out = apply(row);
            return out == null ? List.of() : Collections.singletonList(out);
        }
        List<Object[]> made = lateral.rows(variantInput == null ? row : Variants.toSpark(variantInput, row));
        List<Object[]> out = new ArrayList<>(made.size());
        for (Object[] r : made) {
            if (where != null && !Boolean.TRUE.equals(where.eval(r))) {
                continue;
            }
            if (select == null) {
                out.add(r);
            } else if (generators.isEmpty()) {
                out.add(project(r));
            } else {
                generate(r, out);
            }
        }
        if (then == null) {
            return variantInput == null ? out : out.stream().map(r -> Variants.toValues(output, r))
                    .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
        }
        List<Object[]> stepped = new ArrayList<>(out.size());
        for (Object[] r : out) {
            stepped.addAll(then.rows(r));
        }
        return stepped;
    }

    private Object[] project(Object[] row) {
        Object[] out = new Object[select.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = select[i].eval(row);
        }
        return out;
    }

    /**
     * The select list's rows of {@code row}: each generator's rows within the rows of the generators before it (Spark 4.2 runs
     * several generators of one select list so, the first outermost), the other items (evaluated once: they cannot read the
     * generators' columns) around them.
     */
    private void generate(Object[] row, List<Object[]> out) {
        List<List<Object[]>> made = new ArrayList<>(generators.size());
        for (Generated g : generators) {
            List<Object[]> rows = generated(g.generator(), g.args(), row);
            if (rows.isEmpty()) {
                return;
            }
            made.add(rows);
        }
        Object[] others = project(row);
        int width = output.size();
        int[] next = new int[made.size()];
        while (true) {
            Object[] o = new Object[width];
            int from = 0;
            int to = 0;
            for (int g = 0; g < made.size(); g++) {
                int at = generators.get(g).at();
                System.arraycopy(others, from, o, to, at - from);
                to += at - from;
                from = at;
                Object[] values = made.get(g).get(next[g]);
                System.arraycopy(values, 0, o, to, values.length);
                to += values.length;
            }
            System.arraycopy(others, from, o, to, others.length - from);
            out.add(o);
            int g = made.size() - 1; // the last generator's rows turn fastest
            while (g >= 0 && ++next[g] == made.get(g).size()) {
                next[g--] = 0;
            }
            if (g < 0) {
                return;
            }
        }
    }
}
