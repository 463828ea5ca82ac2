package io.tributary.expressions.internal;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spark's exact order statistics as aggregate calls: {@code percentile(x, p [, frequency])}, {@code median(x)},
 * {@code percentile_cont(p) WITHIN GROUP (ORDER BY x [DESC])}, {@code percentile_disc(...)}, {@code mode(x [, deterministic])}
 * and {@code mode() WITHIN GROUP (ORDER BY x [DESC])}, and the estimates {@code percentile_approx(x, p [, accuracy])} and
 * {@code approx_percentile}. A call's arguments are given in one form, the column first:
 * {@code [x, p, "WITHIN GROUP DESC"]} for {@code percentile_cont(p) WITHIN GROUP (ORDER BY x DESC)}; {@link #text} writes it
 * back as Spark writes it. The second argument ({@code p}, {@code deterministic}) and the ordering are constants, never
 * computed into a column.
 */
public final class OrderedSetCalls {
    /** The last argument of a call written with {@code WITHIN GROUP}, followed by ASC or DESC. */
    public static final String WITHIN_GROUP = "WITHIN GROUP ";

    /** The functions and how many arguments each takes in this form (the least and the most). */
    static final Map<String, int[]> ARGUMENTS = Map.of("percentile", new int[] {2, 3}, "median", new int[] {1, 1},
            "percentile_cont", new int[] {3, 3}, "percentile_disc", new int[] {3, 3}, "mode", new int[] {1, 2},
            "percentile_approx", new int[] {2, 3}, "approx_percentile", new int[] {2, 3});

    /** The estimates, whose arguments after the column ({@code p}, {@code accuracy}) are all constants. */
    private static final Set<String> ESTIMATES = Set.of("percentile_approx", "approx_percentile");

    /**
     * listagg and string_agg, in this form: {@code x}, the delimiter when given, then each key of {@code WITHIN GROUP (ORDER BY ...)}
     * followed by its ordering ({@code WITHIN GROUP DESC NULLS LAST}). The delimiter and the orderings are constants; the keys are
     * computed into columns as {@code x} is.
     */
    static final Set<String> JOINS = Set.of("listagg", "string_agg");

    /** The functions Spark takes {@code WITHIN GROUP} for. */
    static final Set<String> WITHIN_GROUP_FUNCTIONS = Set.of("percentile_cont", "percentile_disc", "mode", "listagg", "string_agg");

    private OrderedSetCalls() {
    }

    /** Whether {@code args} (in this form) is a call of {@code function} with as many arguments as it takes. */
    static boolean takes(String function, int args) {
        if (JOINS.contains(function)) {
            return args >= 1;
        }
        int[] range = ARGUMENTS.get(function);
        return range != null && args >= range[0] && args <= range[1];
    }

    /**
     * Whether the argument at {@code index} (from 0) of a call of {@code function} is a constant: {@code p}, {@code deterministic},
     * {@code accuracy}, the ordering.
     */
    public static boolean isConstant(String function, int index, String text) {
        String name = function.toLowerCase(Locale.ROOT);
        return ARGUMENTS.containsKey(name) && (index == 1 || index > 1 && ESTIMATES.contains(name)) || text.startsWith(WITHIN_GROUP);
    }

    /**
     * Whether the argument at {@code index} of {@code args} (a call of {@code function} in this form) is a constant: as
     * {@link #isConstant(String, int, String)}, and listagg's delimiter.
     */
    public static boolean isConstant(String function, List<String> args, int index) {
        String text = args.get(index);
        if (JOINS.contains(function.toLowerCase(Locale.ROOT))) {
            return text.startsWith(WITHIN_GROUP) || index == 1 && (args.size() == 2 || !args.get(2).startsWith(WITHIN_GROUP));
        }
        return isConstant(function, index, text);
    }

    /** A key's ordering in listagg's form, NULLs where Spark puts them unless written: first ascending, last descending. */
    static String ordering(boolean descending, Boolean nullsFirst) {
        boolean first = nullsFirst == null ? !descending : nullsFirst;
        return WITHIN_GROUP + (descending ? "DESC" : "ASC") + " NULLS " + (first ? "FIRST" : "LAST");
    }

    /** The arguments of a call written with {@code WITHIN GROUP (ORDER BY x dir)} in this form: {@code x}, the others, the ordering. */
    static List<String> withinGroup(String ordering, boolean descending, List<String> args) {
        List<String> all = new java.util.ArrayList<>();
        all.add(ordering);
        all.addAll(args);
        all.add(WITHIN_GROUP + (descending ? "DESC" : "ASC"));
        return all;
    }

    /** The call {@code function(args...)} as Spark writes it, {@code WITHIN GROUP} where its last argument says so. */
    public static String text(String function, List<String> args) {
        if (JOINS.contains(function.toLowerCase(Locale.ROOT))) {
            return joinText(function, args);
        }
        if (args.isEmpty() || !args.get(args.size() - 1).startsWith(WITHIN_GROUP)) {
            return function + "(" + String.join(", ", args) + ")";
        }
        String direction = args.get(args.size() - 1).substring(WITHIN_GROUP.length());
        return function + "(" + String.join(", ", args.subList(1, args.size() - 1)) + ") WITHIN GROUP (ORDER BY " + args.get(0) + " "
                + direction + ")";
    }

    private static String joinText(String function, List<String> args) {
        List<String> a = new java.util.ArrayList<>(args);
        List<String> keys = new java.util.ArrayList<>();
        while (a.size() >= 2 && a.get(a.size() - 1).startsWith(WITHIN_GROUP)) {
            keys.add(0, a.get(a.size() - 2) + " " + a.get(a.size() - 1).substring(WITHIN_GROUP.length()));
            a.subList(a.size() - 2, a.size()).clear();
        }
        return function + "(" + String.join(", ", a) + ")"
                + (keys.isEmpty() ? "" : " WITHIN GROUP (ORDER BY " + String.join(", ", keys) + ")");
    }
}
