package io.tributary.expressions;

import io.tributary.expressions.internal.Node;
import io.tributary.expressions.internal.Parsing;
import io.tributary.expressions.internal.Parsing.SelectItem;
import java.util.List;

/** Select items and aggregate calls as texts, read with Spark's grammar: how settings written as text are taken apart. */
public final class SelectItems {
    private SelectItems() {
    }

    /**
     * The select items of a comma-separated list, split where the commas separate items (not inside
     * calls or quotes): how a list setting written as one string reads; a list that does not parse is refused.
     */
    public static List<String> split(String list) {
        return Parsing.selectList(list);
    }

    /** The name of the column a select item makes, read from its text: its alias, a column's (or field's) name, else its text. */
    public static String name(String item) {
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
    public static String expression(String item) {
        SelectItem parsed = Parsing.aggregatedSelectItem(item);
        return parsed.star() ? item.strip() : parsed.expression().text();
    }

    /** Whether a select item is a column as it is (no alias, no computation): {@code user}, {@code `my col`}. */
    public static boolean isColumn(String item) {
        return unaliased(item) instanceof Node.Column c && c.names().size() == 1;
    }

    /** Whether a select item is a literal as it is: {@code 0.01} (an aggregate's constant argument, read as written). */
    public static boolean isLiteral(String item) {
        return unaliased(item) instanceof Node.Literal;
    }

    private static Node unaliased(String item) {
        SelectItem parsed = Parsing.selectItem(item);
        return parsed.star() || parsed.alias() != null ? null : parsed.expression();
    }

    /**
     * An aggregate written as Spark writes it, {@code sum(amt * qty)}: its function's name (as written) and its
     * arguments' texts ({@code *} for {@code count(*)}, two for {@code max_by(user, amt)}); a text that is no such call is refused.
     */
    public static List<String> aggregateCall(String text) {
        return List.of(Parsing.aggregateCall(text));
    }
}
