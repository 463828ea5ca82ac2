package io.tributary.expressions;

import io.tributary.expressions.internal.HavingRewrite;
import java.util.Map;

/**
 * Spark's {@code HAVING}: a predicate over an aggregation's output rows, written over its columns (the window, the
 * group-by columns, the aggregates by name) and aggregate calls. A call the select list makes ({@code sum(amt)}, selected
 * as {@code t}) is that column; another ({@code count(*)} while only {@code sum(amt)} is selected) is a hidden aggregate,
 * computed with the others and never written, as Spark computes it.
 *
 * @param predicate the predicate over the output columns and the hidden ones
 * @param hidden    the hidden aggregates by column name ({@code _having_0} to {@code count(*)}), in their order
 */
public record Having(String predicate, Map<String, String> hidden) {
    /** The names of the hidden aggregates' columns start with it. */
    public static final String HIDDEN_PREFIX = "_having_";

    /**
     * {@code text} over the aggregation whose select list is {@code select} (output name to aggregate call); an aggregate over an
     * expression that the select list does not make is refused, naming it.
     */
    public static Having of(String text, Map<String, String> select) {
        HavingRewrite.Result r = HavingRewrite.rewrite(text, select, HIDDEN_PREFIX);
        return new Having(r.predicate(), r.hidden());
    }

    /** Texts over an aggregation's rows as {@link #ofAll} rewrites them, and the hidden aggregates they read, in their order. */
    public record Rewritten(java.util.List<String> texts, Map<String, String> hidden) {
    }

    /**
     * HAVING ({@code having}, null for none) and the select list's expressions over the aggregation's output ({@code columns}, in
     * their order) over the aggregates {@code select} names: each aggregate call as the column that computes it, a call that
     * {@code select} does not make a hidden aggregate shared by all of them.
     *
     * @return the texts rewritten (HAVING first when given, then {@code columns}) and the hidden aggregates
     */
    public static Rewritten ofAll(String having, java.util.List<String> columns, Map<String, String> select) {
        java.util.List<String> texts = new java.util.ArrayList<>();
        if (having != null) {
            texts.add(having);
        }
        texts.addAll(columns);
        HavingRewrite.Results r = HavingRewrite.rewriteAll(texts, select, HIDDEN_PREFIX);
        return new Rewritten(r.texts(), r.hidden());
    }

    /**
     * {@code text} with the argument of each aggregate call that is an expression ({@code sum(amt * qty)}) written as the column
     * that holds it ({@code sum(`_agg_t`)}): the one {@code columns} names for that argument (by shape: {@code amt*qty} is
     * {@code amt * qty}), else a new one that {@code newColumn} names given the argument's text, added to {@code columns}. So a
     * source computes each argument once, and the aggregation aggregates a column, in HAVING and inside expressions too.
     */
    public static String argumentsAsColumns(String text, Map<String, String> columns, java.util.function.Function<String, String> newColumn) {
        return HavingRewrite.argumentsAsColumns(text, columns, newColumn);
    }

    /**
     * What a source computes of the argument {@code argument} of an aggregate call of {@code function}: schema_of_variant_agg's
     * VARIANT as its {@code schema_of_variant} text, which the aggregation merges; any other argument as written.
     */
    public static String computedArgument(String function, String argument) {
        return HavingRewrite.computedArgument(function, argument);
    }

    /** The shape of an expression ({@code amt * qty}) as {@link #argumentsAsColumns} matches arguments. */
    public static String shapeOf(String expression) {
        return HavingRewrite.shapeOf(expression);
    }

    /** The aggregate functions an aggregation computes, by Spark's names ({@code sum}, {@code collect_list}, ...). */
    public static java.util.Set<String> aggregateFunctions() {
        return HavingRewrite.AGGREGATES;
    }

    /**
     * Whether the argument at {@code index} (from 0, as {@link Transform#aggregateCall} gives them) of an aggregate call of
     * {@code function} is a constant that stays as written: percentile's {@code p}, mode's {@code deterministic}, a WITHIN GROUP ordering.
     */
    public static boolean isConstantArgument(String function, int index, String text) {
        return io.tributary.expressions.internal.OrderedSetCalls.isConstant(function, index, text);
    }

    /**
     * Whether the argument at {@code index} of {@code args} (an aggregate call of {@code function}, as {@link Transform#aggregateCall}
     * gives its arguments) is a constant that stays as written: as {@link #isConstantArgument(String, int, String)}, and listagg's
     * delimiter.
     */
    public static boolean isConstantArgument(String function, java.util.List<String> args, int index) {
        return io.tributary.expressions.internal.OrderedSetCalls.isConstant(function, args, index);
    }

    /** The argument that ends a call's arguments after each key of {@code WITHIN GROUP (ORDER BY ...)}, followed by its ordering. */
    public static final String WITHIN_GROUP = io.tributary.expressions.internal.OrderedSetCalls.WITHIN_GROUP;

    /** The aggregate call of {@code function} over {@code args} (as {@link Transform#aggregateCall} gives them), as Spark writes it. */
    public static String callText(String function, java.util.List<String> args) {
        return io.tributary.expressions.internal.OrderedSetCalls.text(function, args);
    }

    /** Whether {@code text} is one aggregate call ({@code sum(amt)}, {@code count(*)}) rather than an expression over aggregates. */
    public static boolean isAggregateCall(String text) {
        return HavingRewrite.isAggregateCall(text);
    }

    /** {@code text} with the aggregate calls that {@code select} makes written as their columns, the others as written. */
    public static String selectedAsColumns(String text, Map<String, String> select) {
        return HavingRewrite.rewrite(text, select, null).predicate();
    }

    /**
     * {@code text} with the window's name as Spark gives it without an alias ({@code from}: {@code window} or {@code session_window})
     * read as the name an alias gave it ({@code to}), as Spark reads both: {@code session_window.end} is {@code `w`.`end`}.
     */
    public static String windowRenamed(String text, String from, String to) {
        return HavingRewrite.renamed(text, from, to);
    }

    /** A query's HAVING with the columns its FROM alias qualifies ({@code s.user}) written without it, as the output names them. */
    public static String unqualified(String text, String alias) {
        return HavingRewrite.unqualified(text, alias);
    }
}
