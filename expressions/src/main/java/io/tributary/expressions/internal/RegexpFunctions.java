package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Spark's regexp_count, regexp_extract_all, regexp_instr, regexp_like and regexp_substr (Java regular expressions, as Spark). */
final class RegexpFunctions {
    private RegexpFunctions() {
    }

    /** What a function computes from the text, the pattern and the group index. */
    @FunctionalInterface
    private interface Body {
        Object apply(String s, Pattern p, int group);
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("regexp_count", 2, 2, "regexp_count(str STRING, regexp STRING) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the number of matches of the regular expression", (call, args) -> regexp(call, args, null, INT, (s, p, g) -> {
                    Matcher m = p.matcher(s);
                    int n = 0;
                    while (m.find()) {
                        n++;
                    }
                    return n;
                })));
        add.accept(Fn.custom("regexp_extract_all", 2, 3, "regexp_extract_all(str STRING, regexp STRING[, idx INT]) → ARRAY<STRING>",
                FunctionDef.NULL_IN_NULL_OUT, "group idx (1 by default) of every match, '' for a group that did not take part",
                (call, args) -> regexp(call, args, 1, Types.arrayOf(STRING), (s, p, g) -> {
                    Matcher m = p.matcher(s);
                    List<String> out = new ArrayList<>();
                    if (s.isEmpty()) {
                        return out; // Spark finds no match in ''
                    }
                    while (m.find()) {
                        checkGroup(m, g); // as Spark, on a match only
                        String found = m.group(g);
                        out.add(found == null ? "" : found);
                    }
                    return out;
                })));
        add.accept(Fn.custom("regexp_instr", 2, 3, "regexp_instr(str STRING, regexp STRING[, idx INT]) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the 1-based position (in UTF-16 units, as Spark) where the first match starts, 0 if none; idx is ignored, as in Spark",
                (call, args) -> regexp(call, args, 0, INT, (s, p, g) -> {
                    Matcher m = p.matcher(s);
                    return m.find() ? m.start() + 1 : 0;
                })));
        add.accept(Fn.alias("regexp_like", FunctionRegistry.get("rlike")));
        add.accept(Fn.custom("regexp_substr", 2, 2, "regexp_substr(str STRING, regexp STRING) → STRING", "null if an argument is null or nothing matches",
                "the first match of the regular expression", (call, args) -> regexp(call, args, null, STRING, (s, p, g) -> {
                    Matcher m = p.matcher(s);
                    return m.find() && m.end() > m.start() ? m.group() : null;
                })));
    }

    private static void checkGroup(Matcher m, int group) {
        if (group < 0 || group > m.groupCount()) {
            throw Failure.of("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", "the regex has " + m.groupCount() + " groups, not " + group);
        }
    }

    /** The text and pattern as STRING (and the group index as INT when {@code group} has a default), the pattern compiled once if constant. */
    private static Bound regexp(Analyzer.Call call, List<Bound> args, Integer group, DataType type, Body body) {
        List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING)));
        if (group != null) {
            cast.add(args.size() > 2 ? TextFunctions.number(call, args.get(2), INT) : new Bound.Literal(group, INT, group.toString()));
        }
        Pattern fixed = cast.get(1) instanceof Bound.Literal l && l.value() != null ? constant((String) l.value()) : null;
        return call.apply(cast, type, a -> body.apply((String) a[0], fixed != null ? fixed : compile((String) a[1]),
                a.length > 2 ? (Integer) a[2] : 0));
    }

    /** The constant pattern compiled once, or null when it is invalid: then each row fails, as in Spark. */
    private static Pattern constant(String regexp) {
        try {
            return Pattern.compile(regexp);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    private static Pattern compile(String regexp) {
        try {
            return Pattern.compile(regexp);
        } catch (PatternSyntaxException e) {
            throw Failure.of("INVALID_PARAMETER_VALUE.PATTERN", "the regular expression '" + regexp + "' is invalid: " + e.getDescription());
        }
    }
}
