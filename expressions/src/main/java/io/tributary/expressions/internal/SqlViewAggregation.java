package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery.Aggregation;
import io.tributary.expressions.SqlQuery.Part;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An aggregation and a view ({@link SqlViews}): the columns a view that aggregates gives its reader, and a GROUP BY over a
 * view's columns rewritten over the view's input (its event-time column, grouping expressions and aggregates' arguments; HAVING
 * and the select list read the aggregated rows, and stay as they are).
 */
final class SqlViewAggregation {
    private SqlViewAggregation() {
    }

    /** The aggregation's columns as select items over its rows, in the table's order ({@code `user`}, {@code expr AS `name`}). */
    static List<String> layout(Aggregation a) {
        if (a.columns() != null) {
            return a.columns();
        }
        List<String> out = new ArrayList<>();
        out.add(ViewColumns.quoted(a.windowColumn() != null ? a.windowColumn() : a.session() != null ? "session_window" : "window"));
        for (String g : a.groupBy()) {
            Parsing.SelectItem item = Parsing.selectItem(g);
            List<String> names = item.expression() instanceof Node.Column c ? c.names() : List.of("?");
            out.add(ViewColumns.quoted(item.alias() != null ? item.alias() : names.get(names.size() - 1)));
        }
        a.select().keySet().forEach(name -> out.add(ViewColumns.quoted(name)));
        return out;
    }

    /** The aggregation {@code a} of a query that reads a view, over the view's input ({@code columns}). */
    static Aggregation overView(Aggregation a, ViewColumns columns) {
        Part at = a.at();
        String ts = columns.expression(new Part(ViewColumns.quoted(a.eventTime()), at.line(), at.column()));
        String eventTime = a.eventTime();
        if (!ts.equals(ViewColumns.quoted(a.eventTime()))) {
            if (!(Parsing.expression(ts) instanceof Node.Column c) || c.names().size() != 1) {
                throw ExpressionErrors.sqlUnsupported("the window's event-time column " + a.eventTime() + ", which the view computes as " + ts,
                        at.line(), at.column(), "the window's time is a column of the source (aggregate.eventTime): group by window(ts, ...)"
                                + " of the source's column, or cast it in the source's schema");
            }
            eventTime = c.names().get(0);
        }
        List<String> groupBy = new ArrayList<>();
        a.groupBy().forEach(g -> groupBy.add(columns.selectItem(new Part(g, at.line(), at.column()))));
        Map<String, String> select = new LinkedHashMap<>();
        a.select().forEach((name, call) -> select.put(name, columns.expression(new Part(call, at.line(), at.column()))));
        return new Aggregation(at, eventTime, a.window(), a.slide(), a.session(), a.windowColumn(), List.copyOf(groupBy), select,
                a.having(), a.columns());
    }
}
