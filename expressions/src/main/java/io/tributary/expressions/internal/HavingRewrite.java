package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Rewrites a {@code HAVING} predicate into one over an aggregation's output columns: an aggregate call the select list
 * names ({@code sum(amt)} selected as {@code t}) becomes that column, any other ({@code count(*)}) a hidden column of its
 * own, computed with the others and not written. Parsed, never matched as text: the replacements are the calls' places
 * in the predicate.
 */
public final class HavingRewrite {
    /** The aggregate functions an aggregation computes, by Spark's names (the topology's {@code AggregateFunction}). */
    public static final Set<String> AGGREGATES = Set.of("count", "count_if", "sum", "min", "max", "avg", "first", "last", "any_value",
            "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop", "bool_and", "every", "bool_or", "some", "any",
            "percentile", "median", "percentile_cont", "percentile_disc", "mode", "percentile_approx", "approx_percentile", // OrderedSetCalls
            "collect_list", "collect_set", "mean", "std", "first_value", "last_value", "array_agg", "try_sum", "try_avg", "bit_and", "bit_or",
            "bit_xor", "skewness", "kurtosis", "max_by", "min_by", "corr", "covar_pop", "covar_samp",
            "regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "regr_slope", "regr_intercept", "regr_r2",
            "approx_count_distinct", "vector_sum", "vector_avg",
            "hll_sketch_agg", "hll_union_agg",
            "listagg", "string_agg", // OrderedSetCalls.JOINS
            "theta_sketch_agg", "theta_union_agg", "theta_intersection_agg",
            "kll_sketch_agg_bigint", "kll_sketch_agg_float", "kll_sketch_agg_double", "kll_merge_agg_bigint", "kll_merge_agg_float", "kll_merge_agg_double",
            "schema_of_variant_agg", // its argument computed as schema_of_variant(v): computedArgument
            "tuple_sketch_agg_double", "tuple_sketch_agg_integer", "tuple_union_agg_double", "tuple_union_agg_integer",
            "tuple_intersection_agg_double", "tuple_intersection_agg_integer");

    /**
     * Spark's tuple sketch aggregates and how many arguments each takes (the least and the most): {@code tuple_sketch_agg_*(key,
     * summary [, lgNomEntries [, mode]])}, {@code tuple_union_agg_*(sketch [, lgNomEntries [, mode]])},
     * {@code tuple_intersection_agg_*(sketch [, mode])}; the arguments after the columns are constants.
     */
    static final Map<String, int[]> TUPLE_ARGUMENTS = Map.of("tuple_sketch_agg_double", new int[] {2, 4},
            "tuple_sketch_agg_integer", new int[] {2, 4}, "tuple_union_agg_double", new int[] {1, 3}, "tuple_union_agg_integer", new int[] {1, 3},
            "tuple_intersection_agg_double", new int[] {1, 2}, "tuple_intersection_agg_integer", new int[] {1, 2});

    /** The aggregate functions of two arguments ({@code max_by(x, ord)}, {@code corr(x, y)}); the others take one. */
    static final Set<String> TWO_ARGUMENTS = Set.of("max_by", "min_by", "corr", "covar_pop", "covar_samp",
            "regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "regr_slope", "regr_intercept", "regr_r2");

    /** The aggregate functions of one column and, optionally, a constant ({@code approx_count_distinct(user, 0.01)}, {@code first(x, true)}). */
    static final Set<String> OPTIONAL_CONSTANT = Set.of("approx_count_distinct", "first", "last", "first_value", "last_value", "any_value",
            "hll_sketch_agg", "hll_union_agg",
            "theta_sketch_agg", "theta_union_agg",
            "kll_sketch_agg_bigint", "kll_sketch_agg_float", "kll_sketch_agg_double", "kll_merge_agg_bigint", "kll_merge_agg_float", "kll_merge_agg_double");

    /** Whether {@code function}, an aggregate, takes {@code count} arguments. */
    static boolean takes(String function, int count) {
        if (OrderedSetCalls.ARGUMENTS.containsKey(function) || OrderedSetCalls.JOINS.contains(function)) {
            return OrderedSetCalls.takes(function, count);
        }
        int[] tuple = TUPLE_ARGUMENTS.get(function);
        if (tuple != null) {
            return count >= tuple[0] && count <= tuple[1];
        }
        return count == (TWO_ARGUMENTS.contains(function) ? 2 : 1) || count == 2 && OPTIONAL_CONSTANT.contains(function);
    }

    private final String text;
    private final Map<String, String> selected = new HashMap<>(); // an aggregate call's shape -> its output name
    private final String hiddenPrefix;
    private final Map<String, String> hidden; // hidden name -> aggregate call
    private final Map<String, String> hiddenByShape;
    private final List<int[]> spans = new ArrayList<>();
    private final List<String> replacements = new ArrayList<>();
    /** The columns that hold aggregate arguments by the argument's shape, when the walk rewrites arguments; else null. */
    private Map<String, String> argumentColumns;
    private java.util.function.Function<String, String> newArgument;
    /** The new text of a column the walk meets (null: left as written), or null when the walk rewrites aggregate calls. */
    private java.util.function.Function<Node.Column, String> columns;

    /** The predicate as rewritten, and the hidden aggregates by name ({@code count(*)}), in their order. */
    public record Result(String predicate, Map<String, String> hidden) {
    }

    /** Texts as rewritten, in their order, and the hidden aggregates all of them read, each once. */
    public record Results(List<String> texts, Map<String, String> hidden) {
    }

    private HavingRewrite(String text, Map<String, String> select, String hiddenPrefix) {
        this(text, select, hiddenPrefix, new LinkedHashMap<>(), new HashMap<>());
    }

    private HavingRewrite(String text, Map<String, String> select, String hiddenPrefix, Map<String, String> hidden,
                          Map<String, String> hiddenByShape) {
        this.text = text;
        this.hiddenPrefix = hiddenPrefix;
        this.hidden = hidden;
        this.hiddenByShape = hiddenByShape;
        select.forEach((name, call) -> {
            String shape = callShape(call);
            if (shape != null) {
                selected.putIfAbsent(shape, name);
            }
        });
    }

    /**
     * {@code text} with each aggregate call that {@code select} (output name to call) makes written as that column; with
     * {@code hiddenPrefix} not null, each other aggregate call as a hidden column named by the prefix and a number, else left
     * as written.
     */
    public static Result rewrite(String text, Map<String, String> select, String hiddenPrefix) {
        HavingRewrite r = new HavingRewrite(text, select, hiddenPrefix);
        r.walk(Parsing.havingExpression(text, null));
        return new Result(r.replaced(), java.util.Collections.unmodifiableMap(r.hidden));
    }

    /**
     * As {@link #rewrite} for each of {@code texts} (HAVING and the select list's expressions over aggregates): an aggregate call
     * that several of them read is one hidden column.
     */
    public static Results rewriteAll(List<String> texts, Map<String, String> select, String hiddenPrefix) {
        Map<String, String> hidden = new LinkedHashMap<>();
        Map<String, String> byShape = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (String text : texts) {
            HavingRewrite r = new HavingRewrite(text, select, hiddenPrefix, hidden, byShape);
            r.walk(Parsing.havingExpression(text, null));
            out.add(r.replaced());
        }
        return new Results(List.copyOf(out), java.util.Collections.unmodifiableMap(hidden));
    }

    /**
     * {@code text} with the argument of each aggregate call that is an expression ({@code amt * qty} of {@code sum(amt * qty)})
     * written as the column that holds it: the one {@code columns} names for the argument's shape, else a new one that
     * {@code newColumn} names given the argument's text (and that is added to {@code columns}).
     */
    public static String argumentsAsColumns(String text, Map<String, String> columns, java.util.function.Function<String, String> newColumn) {
        HavingRewrite r = new HavingRewrite(text, Map.of(), null);
        r.argumentColumns = columns;
        r.newArgument = newColumn;
        r.walk(Parsing.havingExpression(text, null));
        return r.replaced();
    }

    /**
     * What a source computes of an aggregate's argument {@code argument} for the aggregation: schema_of_variant_agg's VARIANT as
     * its {@code schema_of_variant} text (a topic carries no VARIANT; the aggregation merges the texts), any other as it is.
     */
    public static String computedArgument(String function, String argument) {
        return function.equalsIgnoreCase("schema_of_variant_agg") ? "schema_of_variant(" + argument + ")" : argument;
    }

    /** The shape of an expression ({@code amt * qty}), the same however it is written, as {@link #argumentsAsColumns} matches arguments. */
    public static String shapeOf(String expression) {
        return SqlAggregation.shape(Parsing.havingExpression(expression, null));
    }

    /** Whether {@code text} is one aggregate call ({@code sum(amt)}, {@code count(*)}), which an aggregation computes as a column. */
    public static boolean isAggregateCall(String text) {
        return callShape(text) != null;
    }

    /** {@code text} with each column that {@code alias} qualifies ({@code s.user}) written without it ({@code `user`}). */
    public static String unqualified(String text, String alias) {
        HavingRewrite r = new HavingRewrite(text, Map.of(), null);
        // s.user; user stays as written
        r.columns = c -> !isStar(c) && !c.text().equals(String.join(".", c.names())) ? path(c) : null;
        r.walk(Parsing.havingExpression(text, alias));
        return r.replaced();
    }

    /**
     * {@code text} with each column named {@code from} or below it ({@code session_window}, {@code session_window.end}) named
     * {@code to} instead ({@code `w`}, {@code `w`.`end`}): Spark's name of a window that an alias renamed still reads it.
     */
    public static String renamed(String text, String from, String to) {
        HavingRewrite r = new HavingRewrite(text, Map.of(), null);
        r.columns = c -> {
            if (!c.names().get(0).equalsIgnoreCase(from)) {
                return null;
            }
            List<String> names = new ArrayList<>(c.names());
            names.set(0, to);
            return names.stream().map(HavingRewrite::quoted).collect(Collectors.joining("."));
        };
        r.walk(Parsing.havingExpression(text, null));
        return r.replaced();
    }

    private void walk(Node n) {
        if (n instanceof Node.Column c) {
            String with = columns == null ? null : columns.apply(c);
            if (with != null) {
                replace(c, with);
            }
        } else if (n instanceof Node.Call c) {
            if (columns == null && isAggregate(c)) {
                aggregate(c);
                return;
            }
            c.args().forEach(this::walk);
        } else if (n instanceof Node.Cast c) {
            walk(c.child());
        } else if (n instanceof Node.Field f) {
            walk(f.child());
        } else if (n instanceof Node.Case c) {
            c.conditions().forEach(this::walk);
            c.values().forEach(this::walk);
            if (c.otherwise() != null) {
                walk(c.otherwise());
            }
        }
    }

    private void aggregate(Node.Call c) {
        if (argumentColumns != null) {
            List<String> texts = c.args().stream().map(Node::text).toList();
            for (int i = 0; i < c.args().size(); i++) {
                Node arg = c.args().get(i);
                String computed = computedArgument(c.name(), arg.text());
                if (!computed.equals(arg.text()) || !(arg instanceof Node.Column || arg instanceof Node.Literal)
                        && !OrderedSetCalls.isConstant(c.name(), texts, i)) { // a column, * or a constant is read as it is
                    String shape = SqlAggregation.shape(Parsing.havingExpression(computed, null));
                    String column = argumentColumns.computeIfAbsent(shape, s -> newArgument.apply(computed));
                    replace(arg, quoted(column));
                }
            }
            return;
        }
        String shape = shape(c);
        String name = selected.get(shape);
        if (name == null && hiddenPrefix != null) {
            List<String> args = new ArrayList<>();
            List<String> texts = c.args().stream().map(Node::text).toList();
            for (int i = 0; i < c.args().size(); i++) {
                Node arg = c.args().get(i);
                if (arg instanceof Node.Literal || OrderedSetCalls.isConstant(c.name(), texts, i)) {
                    args.add(arg.text());
                    continue;
                }
                if (!(arg instanceof Node.Column column)) {
                    throw ExpressionErrors.havingAggregateOfExpression(text, c.position(), c.text());
                }
                args.add(isStar(column) ? "*" : path(column));
            }
            name = hiddenByShape.computeIfAbsent(shape, s -> {
                String hiddenName = hiddenPrefix + hidden.size();
                hidden.put(hiddenName, OrderedSetCalls.text(c.name(), args));
                return hiddenName;
            });
        }
        if (name != null) {
            replace(c, quoted(name));
        }
    }

    private void replace(Node n, String with) {
        spans.add(new int[] {n.position() - 1, n.position() - 1 + n.text().length()});
        replacements.add(with);
    }

    private String replaced() {
        StringBuilder s = new StringBuilder(text);
        Integer[] order = new Integer[spans.size()]; // replace from the right (WITHIN GROUP puts a call's first argument last)
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(spans.get(b)[0], spans.get(a)[0]));
        for (int i : order) {
            s.replace(spans.get(i)[0], spans.get(i)[1], replacements.get(i));
        }
        return s.toString();
    }

    private static boolean isAggregate(Node.Call c) {
        return AGGREGATES.contains(c.name()) && takes(c.name(), c.args().size());
    }

    private static boolean isStar(Node n) {
        return n instanceof Node.Column c && c.names().equals(List.of("*")) && c.text().equals("*");
    }

    /** {@code sum(col:amt)}, {@code count(*)}: an aggregate call's structure, the same however it is written. */
    private static String shape(Node.Call c) {
        return c.name() + "(" + c.args().stream().map(arg -> isStar(arg) ? "*" : SqlAggregation.shape(arg)).collect(Collectors.joining(","))
                + ")";
    }

    /** The shape of an aggregate call written as {@code aggregate.select} takes it, or null when it is none. */
    private static String callShape(String call) {
        try {
            Node n = Parsing.havingExpression(call, null);
            return n instanceof Node.Call c && isAggregate(c) ? shape(c) : null;
        } catch (RuntimeException notACall) {
            return null;
        }
    }

    private static String path(Node.Column c) {
        return c.names().stream().map(HavingRewrite::quoted).collect(Collectors.joining("."));
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
