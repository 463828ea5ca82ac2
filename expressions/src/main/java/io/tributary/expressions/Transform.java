package io.tributary.expressions;

import io.tributary.expressions.internal.Analyzer;
import io.tributary.expressions.internal.Bound;
import io.tributary.expressions.internal.Intervals;
import io.tributary.expressions.internal.Node;
import io.tributary.expressions.internal.Parsing;
import io.tributary.expressions.internal.Parsing.SelectItem;
import io.tributary.expressions.internal.Types;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Spark's {@code where(...)} then {@code selectExpr(...)} over rows of an input schema, compiled once:
 * {@link #apply} gives the output row, or null when the filter drops the row. The filter keeps a row
 * only where it is true (not false, not null), as Spark's.
 */
public final class Transform {
    private final Schema output;
    private final Expression where;
    private final Expression[] select; // null: the row passes through unchanged

    private Transform(Schema output, Expression where, Expression[] select) {
        this.output = output;
        this.where = where;
        this.select = select;
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
        Expression filter = null;
        if (where != null && !where.isBlank()) {
            filter = Expression.compile(input, where, alias);
            DataType t = filter.type();
            if (t != null && t.kind() != DataType.Kind.BOOLEAN) {
                throw ExpressionErrors.notBoolean(where, t.ddl());
            }
        }
        if (select == null || select.isEmpty()) {
            return new Transform(input, filter, null);
        }
        List<Field> fields = new ArrayList<>();
        List<Expression> items = new ArrayList<>();
        for (String item : select) {
            SelectItem parsed = Parsing.selectItem(item, alias);
            if (parsed.star()) {
                boolean ofInput = alias != null && parsed.qualifier().size() == 1 && parsed.qualifier().get(0).equalsIgnoreCase(alias);
                if (!parsed.qualifier().isEmpty() && !ofInput) {
                    throw ExpressionErrors.starOfUnknown(item);
                }
                for (int i = 0; i < input.size(); i++) {
                    Field f = input.field(i);
                    fields.add(f);
                    items.add(Expression.of(f.name(), new Bound.Column(i, new int[0], f.type(), f.name())));
                }
                continue;
            }
            Bound bound = new Analyzer(input, item).resolve(parsed.expression());
            if (bound.type() == null) {
                throw ExpressionErrors.voidColumn(item);
            }
            if (Intervals.isInterval(bound.type())) {
                throw ExpressionErrors.intervalColumn(item, Types.name(bound.type()));
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
        return new Transform(new Schema(fields), filter, items.toArray(Expression[]::new));
    }

    /** A column keeps its name (a struct field its own); any other expression is named by its text, as written. */
    private static String defaultName(SelectItem item, Bound bound) {
        if (bound instanceof Bound.Column c) {
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

    /**
     * The select items of a comma-separated list, split where the commas separate items (not inside
     * calls or quotes): how a list setting written as one string reads; a list that does not parse is refused.
     */
    public static List<String> selectItems(String list) {
        return Parsing.selectList(list);
    }

    /** The name of the column a select item makes, read from its text: its alias, a column's (or field's) name, else its text. */
    public static String itemName(String item) {
        SelectItem parsed = Parsing.aggregatedSelectItem(item); // an item over an aggregation's rows may call aggregates
        if (parsed.star()) {
            return item.strip();
        }
        if (parsed.alias() != null) {
            return parsed.alias();
        }
        return parsed.expression() instanceof Node.Column c ? c.names().get(c.names().size() - 1) : parsed.expression().text();
    }

    /** The expression of a select item as written, without its alias ({@code sum(amt) / count(*)} of {@code sum(amt) / count(*) AS a}). */
    public static String itemExpression(String item) {
        SelectItem parsed = Parsing.aggregatedSelectItem(item);
        return parsed.star() ? item.strip() : parsed.expression().text();
    }

    /** Whether a select item is a column as it is (no alias, no computation): {@code user}, {@code `my col`}. */
    public static boolean isColumn(String item) {
        SelectItem parsed = Parsing.selectItem(item);
        return !parsed.star() && parsed.alias() == null && parsed.expression() instanceof Node.Column c && c.names().size() == 1;
    }

    /**
     * An aggregate written as Spark writes it, {@code sum(amt * qty)}: its function's name (as written) and its
     * argument's text ({@code *} for {@code count(*)}); a text that is no such call is refused.
     */
    public static List<String> aggregateCall(String text) {
        return List.of(Parsing.aggregateCall(text));
    }

    public Schema output() {
        return output;
    }

    /** Whether rows pass through as they are (no filter, no select). */
    public boolean identity() {
        return where == null && select == null;
    }

    /** The output row, or null when the filter drops {@code row}; {@link ExpressionException} for a row Spark would fail on. */
    public Object[] apply(Object[] row) {
        if (where != null && !Boolean.TRUE.equals(where.eval(row))) {
            return null;
        }
        if (select == null) {
            return row;
        }
        Object[] out = new Object[select.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = select[i].eval(row);
        }
        return out;
    }
}
