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

    /** The functions Spark takes {@code WITHIN GROUP} for. */
    static final Set<String> WITHIN_GROUP_FUNCTIONS = Set.of("percentile_cont", "percentile_disc", "mode", "listagg", "string_agg");

    private OrderedSetCalls() {
    }

    /** Whether {@code args} (in this form) is a call of {@code function} with as many arguments as it takes. */
    static boolean takes(String function, int args) {
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
        if (args.isEmpty() || !args.get(args.size() - 1).startsWith(WITHIN_GROUP)) {
            return function + "(" + String.join(", ", args) + ")";
        }
        String direction = args.get(args.size() - 1).substring(WITHIN_GROUP.length());
        return function + "(" + String.join(", ", args.subList(1, args.size() - 1)) + ") WITHIN GROUP (ORDER BY " + args.get(0) + " "
                + direction + ")";
    }
}
