package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery.Aggregation;
import io.tributary.expressions.SqlQuery.Part;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A query's {@code GROUP BY} over an event-time window, as the aggregation it stands for ({@link Aggregation}: the
 * settings {@code aggregate.eventTime}, {@code window}, {@code slide} or {@code session}, {@code groupBy} and
 * {@code select}, and {@code columns} when the select list is not the window, the GROUP BY's other expressions and the
 * named aggregates in that order). The select list is Spark's projection over the aggregated rows: the window (named by its
 * alias, as Spark names it) or its fields, GROUP BY expressions, aggregates and expressions over them, in any order; what the
 * aggregation cannot make is refused, naming the item and its place.
 */
final class SqlAggregation {
    private static final Set<String> AGGREGATES = HavingRewrite.AGGREGATES;
    private static final String ORDER = "select the table's columns by name: the window, the GROUP BY's expressions, the aggregates"
            + " and expressions over them, e.g. SELECT window(ts, '10 minutes') AS window, user, sum(amt) AS t FROM source GROUP BY"
            + " window(ts, '10 minutes'), user";

    /** A select item: the expression's text, its alias (null without one), and where the item starts. */
    record Item(String expression, String alias, Part at) {
    }

    private final String alias;

    private SqlAggregation(String alias) {
        this.alias = alias;
    }

    /**
     * The aggregation of {@code GROUP BY groupBy} (written at {@code group}) with the select list {@code select}; {@code alias} is
     * the stream's alias in FROM. A select item that is null stands for a {@code *}, which a GROUP BY query cannot select.
     */
    static Aggregation of(Part group, List<Part> groupBy, List<Item> select, Part having, String alias) {
        return new SqlAggregation(alias).translate(group, groupBy, select, having);
    }

    private Aggregation translate(Part group, List<Part> groupBy, List<Item> select, Part having) {
        List<Node> keys = new ArrayList<>();
        Node.Call window = null;
        Part windowAt = null;
        for (Part p : groupBy) {
            Node n = windowByAlias(Parsing.expression(p.text(), alias), select);
            if (isWindow(n)) {
                if (window != null) {
                    throw refused(p, "a second window in GROUP BY", "group by one window(...) or session_window(...)");
                }
                window = (Node.Call) n;
                windowAt = p;
            }
            keys.add(n);
        }
        if (window == null) {
            for (Item item : select) {
                if (window(item) != null) { // Spark's MISSING_AGGREGATION
                    throw refused(item.at(), "the select item " + item.expression() + ", not in GROUP BY", "group by the window: GROUP BY "
                            + item.expression() + ", ...");
                }
            }
            throw refused(group, "GROUP BY without a window", "Spark refuses it too in append mode (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION:"
                    + " an aggregation without a watermark); a streaming aggregation groups rows by event-time windows: GROUP BY"
                    + " window(ts, '10 minutes'), user (or session_window(ts, '30 minutes'))");
        }
        String eventTime = windowArguments(window, windowAt);
        boolean session = window.name().equalsIgnoreCase("session_window");
        String windowColumn = null;
        String[] groupItems = new String[keys.size()];
        Map<String, String> aggregates = new LinkedHashMap<>();
        List<String> columns = new ArrayList<>(); // the select list over the aggregation's rows: Spark's projection after it
        List<Integer> plain = new ArrayList<>(); // the key each item selects as it is (-1: an aggregate, -2: an expression)
        for (Item item : select) {
            if (item.expression() == null) {
                throw refused(item.at(), "SELECT * with GROUP BY", ORDER);
            }
            String[] call = aggregateCall(item.expression());
            if (call != null) {
                if (item.alias() == null) {
                    throw refused(item.at(), "the aggregate " + item.expression() + " without a name", "name it, as it names a column of the table: "
                            + item.expression() + " AS total");
                }
                aggregates.put(item.alias(), OrderedSetCalls.text(call[0], java.util.Arrays.asList(call).subList(1, call.length)));
                columns.add(quoted(item.alias()));
                plain.add(-1);
                continue;
            }
            Node n = Parsing.havingExpression(item.expression(), alias);
            int key = match(n, item, keys);
            if (key >= 0 && isWindow(keys.get(key))) {
                windowColumn = item.alias(); // Spark names the column by the alias; without one, window or session_window
                String name = item.alias() != null ? item.alias() : session ? "session_window" : "window";
                columns.add(quoted(name));
            } else if (key >= 0) {
                groupItems[key] = groupItem(n, item);
                columns.add(quoted(item.alias() != null ? item.alias() : lastName((Node.Column) n)));
            } else if (n instanceof Node.Column c && c.names().size() == 1) { // Spark's MISSING_AGGREGATION
                throw refused(item.at(), "the select item " + item.expression() + ", neither in GROUP BY nor an aggregate", ORDER);
            } else if (item.alias() == null && !(n instanceof Node.Column)) {
                throw refused(item.at(), "the expression " + item.expression() + " without a name", "name it, as it names a column of the"
                        + " table: " + item.expression() + " AS name");
            } else {
                // over the window (its fields), the GROUP BY columns and aggregates: evaluated on the aggregated rows, as Spark's projection
                String text = HavingRewrite.unqualified(item.expression(), alias);
                String name = item.alias() != null ? item.alias() : lastName((Node.Column) n);
                columns.add(text + " AS " + quoted(name));
            }
            plain.add(key >= 0 ? key : -2);
        }
        for (int k = 0; k < keys.size(); k++) {
            if (groupItems[k] == null && !isWindow(keys.get(k))) {
                if (!(keys.get(k) instanceof Node.Column c)) {
                    throw refused(groupBy.get(k), "GROUP BY " + groupBy.get(k).text() + " not in the select list", "select it with a name: "
                            + groupBy.get(k).text() + " AS name");
                }
                groupItems[k] = path(c); // grouped by, not written
            }
        }
        List<String> groupList = new ArrayList<>();
        for (String g : groupItems) {
            if (g != null) {
                groupList.add(g);
            }
        }
        boolean asTheTable = plain.size() == aggregates.size() + keys.size() && plain.get(0) >= 0 && isWindow(keys.get(plain.get(0)));
        for (int i = 1; asTheTable && i < plain.size(); i++) {
            int k = plain.get(i);
            asTheTable = i <= keys.size() - 1 ? k >= 0 && !isWindow(keys.get(k)) && groupList.indexOf(groupItems[k]) == i - 1 : k == -1;
        }
        String size = literal(window.args().get(1));
        String slide = !session && window.args().size() > 2 ? literal(window.args().get(2)) : null;
        // HAVING's columns are the table's: s.user is user; its aggregate calls are matched to the select list's when the aggregation is built
        Part filter = having == null ? null : new Part(HavingRewrite.unqualified(having.text(), alias), having.line(), having.column());
        return new Aggregation(group, eventTime, session ? null : size, slide, session ? size : null, windowColumn, groupList, aggregates,
                filter, asTheTable ? null : columns);
    }

    /** The window a GROUP BY item names by the alias the select list gives it ({@code GROUP BY w} of {@code window(...) AS w}), else the item. */
    private Node windowByAlias(Node n, List<Item> select) {
        if (n instanceof Node.Column c && c.names().size() == 1) {
            for (Item item : select) {
                if (c.names().get(0).equalsIgnoreCase(item.alias()) && window(item) != null) {
                    return window(item);
                }
            }
        }
        return n;
    }

    /** The select item's window call, or null when it is none (an aggregate, another expression, a {@code *}). */
    private Node window(Item item) {
        if (item.expression() == null || aggregateCall(item.expression()) != null) {
            return null;
        }
        Node n = Parsing.havingExpression(item.expression(), alias);
        return isWindow(n) ? n : null;
    }

    private static boolean isWindow(Node n) {
        return n instanceof Node.Call c && (c.name().equalsIgnoreCase("window") || c.name().equalsIgnoreCase("session_window"));
    }

    /** The window's event-time column; its other arguments must be duration texts (no start offset). */
    private static String windowArguments(Node.Call w, Part at) {
        boolean session = w.name().equalsIgnoreCase("session_window");
        int max = session ? 2 : 3;
        if (w.args().size() < 2 || w.args().size() > max || !(w.args().get(0) instanceof Node.Column ts) || ts.names().size() != 1
                || w.args().subList(1, w.args().size()).stream().anyMatch(a -> literal(a) == null)) {
            throw refused(at, w.text(), session ? "write session_window(ts, 'gap'): the event-time column and the gap as text"
                    : "write window(ts, 'length'[, 'slide']): the event-time column and durations as text (a start offset is not supported)");
        }
        return ts.names().get(0);
    }

    private static String literal(Node n) {
        return n instanceof Node.Literal l && l.value() instanceof String s ? s : null;
    }

    /** {@code [function, argument...]} where the item is a call of an aggregate ({@code count(*)} included), else null. */
    private String[] aggregateCall(String text) {
        String[] call;
        try {
            call = Parsing.aggregateCall(text);
        } catch (RuntimeException notACall) {
            return null;
        }
        String function = call[0].toLowerCase(Locale.ROOT);
        if (!AGGREGATES.contains(function) || !HavingRewrite.takes(function, call.length - 1)) {
            return null;
        }
        for (int i = 1; i < call.length; i++) {
            if (!call[i].equals("*") && !call[i].startsWith(OrderedSetCalls.WITHIN_GROUP) && Parsing.expression(call[i], alias) instanceof Node.Column c) {
                call[i] = path(c); // s.amt is the stream's column amt
            }
        }
        return call;
    }

    /** The GROUP BY expression the select item is: the same expression, its alias, or its position (GROUP BY 2); -1 for none. */
    private static int match(Node n, Item item, List<Node> keys) {
        String shape = shape(n);
        for (int k = 0; k < keys.size(); k++) {
            Node key = keys.get(k);
            if (shape.equals(shape(key))) {
                return k;
            }
            if (item.alias() != null && key instanceof Node.Column c && c.names().size() == 1 && c.names().get(0).equalsIgnoreCase(item.alias())) {
                return k;
            }
        }
        return -1;
    }

    /** The item as {@code aggregate.groupBy} takes it: a column, or an expression with its name. */
    private static String groupItem(Node n, Item item) {
        if (n instanceof Node.Column c) {
            String column = path(c);
            String name = c.names().get(c.names().size() - 1);
            return item.alias() == null || item.alias().equals(name) ? column : column + " AS " + quoted(item.alias());
        }
        if (item.alias() == null) {
            throw refused(item.at(), "the GROUP BY expression " + item.expression() + " without a name", "name it, as it names a column of"
                    + " the table: " + item.expression() + " AS name");
        }
        return item.expression() + " AS " + quoted(item.alias());
    }

    private static String lastName(Node.Column c) {
        return c.names().get(c.names().size() - 1);
    }

    private static String path(Node.Column c) {
        return c.names().stream().map(SqlAggregation::quoted).collect(Collectors.joining("."));
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** An expression's structure without its text and places: the same for {@code lower(s.user)} and {@code LOWER( user )}. */
    static String shape(Node n) {
        if (n instanceof Node.Column c) {
            return "col:" + String.join(".", c.names()).toLowerCase(Locale.ROOT);
        }
        if (n instanceof Node.Literal l) {
            return "lit:" + l.value() + ":" + l.type();
        }
        if (n instanceof Node.Call c) {
            return c.name().toLowerCase(Locale.ROOT) + "(" + c.args().stream().map(SqlAggregation::shape).collect(Collectors.joining(",")) + ")";
        }
        if (n instanceof Node.Field f) {
            return shape(f.child()) + "." + f.name().toLowerCase(Locale.ROOT);
        }
        return n.getClass().getSimpleName() + ":" + n.text().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    private static RuntimeException refused(Part at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.line(), at.column(), instead);
    }
}
