package io.tributary.expressions;

import io.tributary.expressions.internal.Node;
import io.tributary.expressions.internal.Parsing;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spark's stream-static join of each stream row with the rows of a static table held in memory (Spark's
 * broadcast join): {@code inner}, {@code left}, {@code left_semi}, {@code left_anti}. The {@code on}
 * condition is Spark SQL over the stream's columns and the table's, written {@code alias.column}.
 *
 * <p>The rows the join makes ({@link #output()}) are the stream's columns, then the table's columns whose
 * names the stream does not have, then one struct column named by the alias holding the table's whole
 * row (null when a left join finds no match): {@code u.segment} is a field of that struct, so a table
 * column the stream also has is reached as {@code u.user}, and the bare name is the stream's. {@link #visible()}
 * names the columns {@code *} stands for (the struct is not one). {@code left_semi} and {@code left_anti}
 * make the stream's rows as they are.
 *
 * <p>When {@code on} is a conjunction with equalities between a stream expression and a table expression of
 * the same type (or structs and arrays of such, field by field by position), the table is hashed on those; else each stream
 * row is compared with every table row. Either way a match is a row where the whole {@code on} is true.
 */
public final class StreamStaticJoin {
    public enum Type {
        INNER, LEFT, LEFT_SEMI, LEFT_ANTI;

        /** Spark's names, case-insensitively; {@code left_outer}, {@code semi}, {@code anti} as Spark takes them. */
        public static Type parse(String text) {
            String t = text == null ? "inner" : text.strip().toLowerCase(Locale.ROOT).replace(" ", "_");
            return switch (t) {
                case "inner" -> INNER;
                case "left", "left_outer", "leftouter" -> LEFT;
                case "left_semi", "leftsemi", "semi" -> LEFT_SEMI;
                case "left_anti", "leftanti", "anti" -> LEFT_ANTI;
                default -> throw ExpressionErrors.unknownJoinType(text);
            };
        }
    }

    private final Type type;
    private final String alias;
    private final int streamWidth;
    private final int tableColumns; // table columns copied flat (those the stream does not name)
    private final int[] flatFrom;   // table column index of each flat column
    private final Schema joined;
    private final Schema table;
    private final List<String> visible;
    private final Expression on;
    private final Expression[] streamKeys; // null: nested loop
    private final Expression[] tableKeys;
    private final long maxRows;
    private final Expression[] nullAware; // NOT IN's x, v and cond (or null), hashed; null: none
    private NullAwareKeys nullAwareKeys;
    private List<Object[]> rows = List.of();
    private Map<List<Object>, List<Object[]>> hash;

    private StreamStaticJoin(Type type, String alias, Schema stream, Schema table, int[] flatFrom, Schema joined, List<String> visible,
            Expression on, Expression[] streamKeys, Expression[] tableKeys, long maxRows, Expression[] nullAware) {
        this.type = type;
        this.alias = alias;
        this.streamWidth = stream.size();
        this.table = table;
        this.flatFrom = flatFrom;
        this.tableColumns = flatFrom.length;
        this.joined = joined;
        this.visible = visible;
        this.on = on;
        this.streamKeys = streamKeys;
        this.tableKeys = tableKeys;
        this.maxRows = maxRows;
        this.nullAware = nullAware;
    }

    /**
     * @param stream        the stream's rows (a previous join's {@link #output()})
     * @param streamVisible the stream's columns {@code *} stands for
     * @param maxRows       the most table rows {@link #load} holds
     */
    public static StreamStaticJoin compile(Schema stream, List<String> streamVisible, Schema table, String alias, String on, Type type,
            long maxRows) {
        return compile(stream, streamVisible, table, alias, on, type, maxRows, null);
    }

    /**
     * As {@link #compile(Schema, List, Schema, String, String, Type, long)} where the stream is named {@code streamAlias} (a
     * query's {@code FROM source s}): {@code s.user} in {@code on} is the stream's column; null for none.
     */
    public static StreamStaticJoin compile(Schema stream, List<String> streamVisible, Schema table, String alias, String on, Type type,
            long maxRows, String streamAlias) {
        if (alias == null || alias.isBlank()) {
            throw ExpressionErrors.joinNeedsAlias();
        }
        if (stream.indexOf(alias) >= 0) {
            throw ExpressionErrors.aliasIsAColumn(alias);
        }
        if (on == null || on.isBlank()) {
            throw ExpressionErrors.joinNeedsOn(alias);
        }
        List<Field> fields = new ArrayList<>(stream.fields());
        List<String> visible = new ArrayList<>(streamVisible);
        List<Integer> flat = new ArrayList<>();
        Set<String> names = new HashSet<>();
        stream.fields().forEach(f -> names.add(f.name().toLowerCase(Locale.ROOT)));
        for (int i = 0; i < table.size(); i++) {
            Field f = table.field(i);
            if (names.add(f.name().toLowerCase(Locale.ROOT))) {
                fields.add(new Field(f.name(), f.type(), true));
                visible.add(f.name());
                flat.add(i);
            }
        }
        fields.add(new Field(alias, DataType.struct(table), true));
        Schema joined = new Schema(fields);
        Expression condition = Expression.compile(joined, on, streamAlias);
        if (condition.type() != null && condition.type().kind() != DataType.Kind.BOOLEAN) {
            throw ExpressionErrors.notBoolean(on, condition.type().ddl());
        }
        // equi-keys: top-level conjuncts "stream expr = table expr" of one plain type
        List<Expression> sk = new ArrayList<>();
        List<Expression> tk = new ArrayList<>();
        for (Node conjunct : conjuncts(Parsing.expression(on, streamAlias))) {
            if (!(conjunct instanceof Node.Call c) || !c.name().equals("=") || c.args().size() != 2) {
                continue;
            }
            Node l = c.args().get(0);
            Node r = c.args().get(1);
            Side ls = side(l, joined, stream.size());
            Side rs = side(r, joined, stream.size());
            Node s = ls == Side.STREAM && rs == Side.TABLE ? l : ls == Side.TABLE && rs == Side.STREAM ? r : null;
            Node t = s == l ? r : l;
            if (s == null) {
                continue;
            }
            Expression se = Expression.compile(joined, s.text(), streamAlias);
            Expression te = Expression.compile(joined, t.text(), streamAlias);
            if (se.type() != null && te.type() != null && sameShape(se.type(), te.type()) && hashable(se.type())) {
                sk.add(se);
                tk.add(te);
            }
        }
        boolean keyed = !sk.isEmpty();
        return new StreamStaticJoin(type, alias, stream, table, flat.stream().mapToInt(Integer::intValue).toArray(),
                joined, type == Type.INNER || type == Type.LEFT ? visible : List.copyOf(streamVisible), condition,
                keyed ? sk.toArray(Expression[]::new) : null, keyed ? tk.toArray(Expression[]::new) : null, maxRows,
                type == Type.LEFT_ANTI ? nullAware(Parsing.expression(on, streamAlias), joined, stream.size(), streamAlias) : null);
    }

    /**
     * The parts of a {@code NOT IN} condition, {@code (x = v OR (x = v) IS NULL) [AND cond]} with {@code x} of the stream, {@code v}
     * and {@code cond} of the table, {@code x} and {@code v} of one atomic type: [x, v, cond or null]; else null.
     */
    private static Expression[] nullAware(Node on, Schema joined, int streamWidth, String streamAlias) {
        List<Node> parts = conjuncts(on);
        if (parts.size() > 2 || !(parts.get(0) instanceof Node.Call or) || !or.name().equals("or") || or.args().size() != 2
                || !(or.args().get(0) instanceof Node.Call eq) || !eq.name().equals("=") || eq.args().size() != 2
                || !(or.args().get(1) instanceof Node.Call isNull) || !isNull.name().equals("isnull")
                || !(isNull.args().get(0) instanceof Node.Call again) || !again.name().equals("=") || !again.text().equals(eq.text())
                || side(eq.args().get(0), joined, streamWidth) != Side.STREAM || side(eq.args().get(1), joined, streamWidth) != Side.TABLE
                || parts.size() == 2 && side(parts.get(1), joined, streamWidth) != Side.TABLE) {
            return null;
        }
        Expression x = Expression.compile(joined, eq.args().get(0).text(), streamAlias);
        Expression v = Expression.compile(joined, eq.args().get(1).text(), streamAlias);
        boolean atomic = x.type() != null && x.type().equals(v.type()) && hashable(x.type())
                && x.type().kind() != DataType.Kind.ARRAY && x.type().kind() != DataType.Kind.STRUCT;
        return atomic ? new Expression[] {x, v, parts.size() == 2 ? Expression.compile(joined, parts.get(1).text(), streamAlias) : null} : null;
    }

    private enum Side { STREAM, TABLE, NONE, BOTH }

    private static List<Node> conjuncts(Node n) {
        if (n instanceof Node.Call c && c.name().equals("and") && c.args().size() == 2) {
            List<Node> out = new ArrayList<>(conjuncts(c.args().get(0)));
            out.addAll(conjuncts(c.args().get(1)));
            return out;
        }
        return List.of(n);
    }

    /** Which side the columns of {@code n} come from. */
    private static Side side(Node n, Schema joined, int streamWidth) {
        Set<Side> sides = new HashSet<>();
        collect(n, joined, streamWidth, sides);
        if (sides.contains(Side.BOTH) || sides.size() > 1) {
            return Side.BOTH;
        }
        return sides.isEmpty() ? Side.NONE : sides.iterator().next();
    }

    private static void collect(Node n, Schema joined, int streamWidth, Set<Side> sides) {
        if (n instanceof Node.Column c) {
            int i = joined.indexOf(c.names().get(0));
            sides.add(i < 0 ? Side.BOTH : i < streamWidth ? Side.STREAM : Side.TABLE);
        } else if (n instanceof Node.Call c) {
            c.args().forEach(a -> collect(a, joined, streamWidth, sides));
        } else if (n instanceof Node.Cast c) {
            collect(c.child(), joined, streamWidth, sides);
        } else if (n instanceof Node.Field f) {
            collect(f.child(), joined, streamWidth, sides);
        } else if (n instanceof Node.Case || n instanceof Node.Lambda) {
            sides.add(Side.BOTH);
        }
    }

    private static boolean hashable(DataType t) {
        return switch (t.kind()) {
            case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, STRING, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ -> true;
            case ARRAY -> hashable(t.element());
            case STRUCT -> t.struct().fields().stream().allMatch(f -> hashable(f.type()));
            default -> false;
        };
    }

    /** Whether values of {@code a} and {@code b} compare as Spark's {@code =} does with no cast: structs field by field by position. */
    private static boolean sameShape(DataType a, DataType b) {
        if (a.kind() != b.kind()) {
            return false;
        }
        return switch (a.kind()) {
            case ARRAY -> sameShape(a.element(), b.element());
            case STRUCT -> a.struct().size() == b.struct().size() && java.util.stream.IntStream.range(0, a.struct().size())
                    .allMatch(i -> sameShape(a.struct().field(i).type(), b.struct().field(i).type()));
            default -> a.equals(b);
        };
    }

    /**
     * A key equal to another's where Spark's {@code =} finds the values equal: -0.0 as 0.0 (NaN equals NaN by
     * {@link Double#equals}), decimals by value, arrays element by element and structs field by field, by position.
     */
    private static Object normal(Object v) {
        if (v instanceof List<?> l) {
            List<Object> k = new ArrayList<>(l.size());
            l.forEach(e -> k.add(normal(e)));
            return k;
        }
        if (v instanceof Object[] struct) {
            List<Object> k = new ArrayList<>(struct.length);
            for (Object e : struct) {
                k.add(normal(e));
            }
            return k;
        }
        if (v instanceof Double d) {
            return d == 0.0 ? 0.0 : d;
        }
        if (v instanceof Float f) {
            return f == 0.0f ? 0.0f : f;
        }
        if (v instanceof BigDecimal b) {
            return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
        }
        return v;
    }

    /** The rows the join makes: what {@code where} and {@code select} see. */
    public Schema output() {
        return type == Type.INNER || type == Type.LEFT ? joined : new Schema(joined.fields().subList(0, streamWidth));
    }

    /** The columns {@code *} stands for after this join, in order. */
    public List<String> visible() {
        return visible;
    }

    public Type type() {
        return type;
    }

    public String alias() {
        return alias;
    }

    /** Whether the table is hashed on equi-keys of {@code on} or NOT IN's {@code x = v} (else each stream row meets every table row). */
    public boolean hashed() {
        return streamKeys != null || nullAware != null;
    }

    public Schema table() {
        return table;
    }

    /** Holds {@code tableRows} (rows of {@link #table()}) for the rows that follow; refused above the limit, with the size. */
    public void load(List<Object[]> tableRows) {
        if (tableRows.size() > maxRows) {
            throw ExpressionErrors.joinTableTooBig(alias, tableRows.size(), maxRows);
        }
        this.rows = List.copyOf(tableRows);
        if (nullAware != null) {
            Object[] probe = new Object[joined.size()];
            nullAwareKeys = new NullAwareKeys(rows, nullAware[1], nullAware[2], r -> {
                fill(probe, r);
                return probe;
            }, StreamStaticJoin::normal);
        }
        if (streamKeys == null) {
            hash = null;
            return;
        }
        Map<List<Object>, List<Object[]>> h = new HashMap<>();
        Object[] probe = new Object[joined.size()];
        for (Object[] r : rows) {
            fill(probe, r);
            List<Object> key = key(tableKeys, probe);
            if (key != null) {
                h.computeIfAbsent(key, k -> new ArrayList<>(1)).add(r);
            }
        }
        hash = h;
    }

    private static List<Object> key(Expression[] keys, Object[] row) {
        Object[] k = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            Object v = keys[i].eval(row);
            if (v == null) {
                return null; // null = anything is not true
            }
            k[i] = normal(v);
        }
        return Arrays.asList(k);
    }

    /** The rows {@code streamRow} makes: none, one or many; {@link ExpressionException} for a row {@code on} fails on. */
    public List<Object[]> apply(Object[] streamRow) {
        Object[] row = Arrays.copyOf(streamRow, joined.size());
        if (nullAwareKeys != null) {
            return nullAwareKeys.keeps(() -> nullAware[0].eval(row), StreamStaticJoin::normal) ? java.util.Collections.singletonList(streamRow) : List.of();
        }
        List<Object[]> candidates;
        if (hash != null) {
            List<Object> k = key(streamKeys, row);
            candidates = k == null ? List.of() : hash.getOrDefault(k, List.of());
        } else {
            candidates = rows;
        }
        List<Object[]> out = null;
        for (Object[] t : candidates) {
            fill(row, t);
            if (Boolean.TRUE.equals(on.eval(row))) {
                if (type == Type.LEFT_SEMI) {
                    return java.util.Collections.singletonList(streamRow);
                }
                if (type == Type.LEFT_ANTI) {
                    return List.of();
                }
                if (out == null) {
                    out = new ArrayList<>(1);
                }
                out.add(row.clone());
            }
        }
        if (out != null) {
            return out;
        }
        return switch (type) {
            case INNER, LEFT_SEMI -> List.of();
            case LEFT_ANTI -> java.util.Collections.singletonList(streamRow);
            case LEFT -> {
                fill(row, null);
                yield java.util.Collections.singletonList(row);
            }
        };
    }

    private void fill(Object[] row, Object[] t) {
        for (int i = 0; i < tableColumns; i++) {
            row[streamWidth + i] = t == null ? null : t[flatFrom[i]];
        }
        row[row.length - 1] = t;
    }
}
