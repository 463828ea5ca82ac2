package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.STRING;

import io.tributary.expressions.internal.SparkExprParser.LikeQuantifiedContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code ILIKE} (LIKE of both sides lower-cased, as Spark rewrites it) and the quantified forms {@code LIKE ANY (p, ...)},
 * {@code LIKE ALL}, their {@code NOT} and {@code ILIKE} forms, with Spark's null rules: a match decides, else a null
 * pattern makes the answer null.
 */
final class LikeFunctions {
    private LikeFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("ilike", 2, 3, "str [NOT] ILIKE pattern [ESCAPE c] → BOOLEAN (also ilike(str, pattern[, c]))",
                FunctionDef.NULL_IN_NULL_OUT, "LIKE of lower(str) and lower(pattern)", LikeFunctions::ilike));
        String nulls = "null when str is null, or when no pattern decides and one is null";
        add.accept(Fn.custom("like any", 2, -1, "str LIKE|ILIKE ANY|SOME (pattern, ...) → BOOLEAN", nulls,
                "whether str matches at least one pattern (ILIKE: both lower-cased)", LikeFunctions::quantifier));
        add.accept(Fn.custom("like all", 2, -1, "str LIKE|ILIKE ALL (pattern, ...) → BOOLEAN", nulls,
                "whether str matches every pattern", LikeFunctions::quantifier));
        add.accept(Fn.custom("not like any", 2, -1, "str NOT LIKE|ILIKE ANY|SOME (pattern, ...) → BOOLEAN", nulls,
                "whether str fails to match at least one pattern", LikeFunctions::quantifier));
        add.accept(Fn.custom("not like all", 2, -1, "str NOT LIKE|ILIKE ALL (pattern, ...) → BOOLEAN", nulls,
                "whether str matches none of the patterns", LikeFunctions::quantifier));
    }

    /** The node of {@code value [NOT] LIKE|ILIKE ANY|SOME|ALL (patterns)}: ILIKE's sides lower-cased, as Spark's parser does. */
    static Node quantified(LikeQuantifiedContext q, Node value, List<Node> patterns, String text, int position) {
        boolean ilike = q.kind.getType() == SparkExprLexer.ILIKE;
        List<Node> args = new ArrayList<>();
        args.add(ilike ? lower(value) : value);
        patterns.forEach(p -> args.add(ilike ? lower(p) : p));
        String all = q.quantifier.getType() == SparkExprLexer.ALL ? "all" : "any";
        return new Node.Call((q.NOT() != null ? "not " : "") + "like " + all, args, text, position);
    }

    private static Node lower(Node n) {
        return new Node.Call("lower", List.of(n), n.text(), n.position());
    }

    private static Bound ilike(Analyzer.Call call, List<Bound> args) {
        List<Bound> text = new ArrayList<>();
        for (Bound b : args.subList(0, 2)) {
            text.add(FunctionRegistry.get("lower").resolver().resolve(call, List.of(call.as(b, STRING))));
        }
        char escape = '\\';
        if (args.size() == 3) {
            if (!(args.get(2) instanceof Bound.Literal lit) || !(lit.value() instanceof String e) || e.length() != 1) {
                throw call.typeError("the ESCAPE of ILIKE must be one character");
            }
            escape = e.charAt(0);
        }
        char esc = escape;
        Pattern fixed = compiledOrNull(text.get(1), esc);
        return call.apply(text, BOOLEAN, (Kernel.Binary) (s, p) ->
                (fixed != null ? fixed : Predicates.likePattern((String) p, esc)).matcher((String) s).matches());
    }

    private static Bound quantifier(Analyzer.Call call, List<Bound> args) {
        boolean not = call.name().startsWith("not ");
        boolean all = call.name().endsWith(" all");
        List<Bound> text = args.stream().map(b -> call.as(b, STRING)).toList();
        int n = text.size() - 1;
        Pattern[] fixed = new Pattern[n];
        Failure invalid = null;
        boolean allText = true; // Spark compiles a list of text constants before the first row: one that does not compile fails each
        for (int i = 0; i < n; i++) {
            Bound p = text.get(i + 1);
            Object value = Folding.constant(p) ? Folding.value(p) : null;
            allText &= value != null;
            try {
                fixed[i] = value == null ? null : Predicates.likePattern((String) value, '\\');
            } catch (Failure f) {
                invalid = invalid == null ? f : invalid;
            }
        }
        Failure failEach = allText ? invalid : null;
        return call.applyTolerant(text, BOOLEAN, a -> {
            if (a[0] == null) {
                return null;
            }
            if (failEach != null) {
                throw failEach;
            }
            boolean sawNull = false;
            for (int i = 0; i < n; i++) {
                if (a[i + 1] == null) {
                    sawNull = true;
                    continue;
                }
                Pattern p = fixed[i] != null ? fixed[i] : Predicates.likePattern((String) a[i + 1], '\\');
                boolean hit = p.matcher((String) a[0]).matches() != not;
                if (hit != all) {
                    return !all; // ANY: one hit decides true; ALL: one miss decides false
                }
            }
            return sawNull ? null : all;
        });
    }

    /** A constant pattern compiled once; null when it is not constant, null or does not compile (then each row fails, as Spark's). */
    private static Pattern compiledOrNull(Bound pattern, char escape) {
        if (!Folding.constant(pattern)) {
            return null;
        }
        try {
            Object p = Folding.value(pattern);
            return p == null ? null : Predicates.likePattern((String) p, escape);
        } catch (Failure f) {
            return null;
        }
    }
}
