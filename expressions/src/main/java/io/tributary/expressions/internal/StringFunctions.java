package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark's string functions. Positions and lengths count characters (code points), as Spark does. */
final class StringFunctions {
    private StringFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.unary("upper", "the text upper-cased (locale-independent)", STRING, STRING, v -> ((String) v).toUpperCase(Locale.ROOT)));
        add.accept(Fn.alias("ucase", Fn.unary("upper", "", STRING, STRING, v -> ((String) v).toUpperCase(Locale.ROOT))));
        add.accept(Fn.unary("lower", "the text lower-cased (locale-independent)", STRING, STRING, v -> ((String) v).toLowerCase(Locale.ROOT)));
        add.accept(Fn.alias("lcase", Fn.unary("lower", "", STRING, STRING, v -> ((String) v).toLowerCase(Locale.ROOT))));
        add.accept(Fn.unary("trim", "the text without leading and trailing spaces", STRING, STRING, v -> Text.trim((String) v, true, true)));
        add.accept(sideTrim("ltrim", "leading", true));
        add.accept(sideTrim("rtrim", "trailing", false));
        FunctionDef chars = Fn.unary("length", "the number of characters", STRING, INT, v -> Text.length((String) v));
        FunctionDef length = Fn.custom("length", 1, 1, "length(STRING or BINARY) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the number of characters, or of bytes of a BINARY", (call, args) -> Types.is(args.get(0).type(), DataType.Kind.BINARY)
                        ? call.apply(args, INT, (Kernel.Unary) v -> ((byte[]) v).length) : chars.resolver().resolve(call, args));
        add.accept(length);
        add.accept(Fn.alias("char_length", length));
        add.accept(Fn.alias("character_length", length));
        FunctionDef text = Fn.fixed("substring", "", STRING, 2, List.of(STRING, INT, INT), List.of(Integer.MAX_VALUE),
                a -> Text.substring((String) a[0], (Integer) a[1], (Integer) a[2]));
        FunctionDef substring = Fn.custom("substring", 2, 3, "substring(str STRING or BINARY, pos INT[, len INT]) → STRING or BINARY",
                FunctionDef.NULL_IN_NULL_OUT, "the characters (bytes of a BINARY) from pos (1-based; negative counts from the end) for len",
                (call, args) -> !Types.is(args.get(0).type(), DataType.Kind.BINARY) ? text.resolver().resolve(call, args)
                        : call.apply(args.stream().map(b -> b == args.get(0) ? b : call.as(b, INT)).toList(), DataType.BINARY,
                                a -> Text.substring((byte[]) a[0], (Integer) a[1], a.length > 2 ? (Integer) a[2] : Integer.MAX_VALUE)));
        add.accept(substring);
        add.accept(Fn.alias("substr", substring));
        add.accept(Fn.binary("left", "the first len characters", STRING, INT, STRING, (s, n) -> Text.substring((String) s, 1, (Integer) n)));
        add.accept(Fn.binary("right", "the last len characters", STRING, INT, STRING,
                (s, n) -> (Integer) n <= 0 ? "" : Text.substring((String) s, -(Integer) n, Integer.MAX_VALUE)));
        add.accept(Fn.custom("concat", 0, -1, "concat(STRING, ...) → STRING, concat(BINARY, ...) → BINARY, concat(ARRAY<T>, ...) → ARRAY<T>",
                FunctionDef.NULL_IN_NULL_OUT, "the texts one after another, the bytes when every argument is BINARY, or the arrays' elements",
                (call, args) -> ArrayFunctions.anyArray(args) ? ArrayFunctions.concat(call, args)
                        : allBinary(args) ? call.apply(args, DataType.BINARY, StringFunctions::concatBytes)
                        : call.apply(args.stream().map(b -> call.as(b, STRING)).toList(), STRING, a -> String.join("", Arrays.stream(a).map(x -> (String) x).toList()))));
        add.accept(Fn.custom("concat_ws", 1, -1, "concat_ws(sep STRING, STRING, ...) → STRING", "null if sep is null; null texts are skipped",
                "the texts joined by sep, nulls skipped", (call, args) -> call.applyTolerant(args.stream().map(b -> call.as(b, STRING)).toList(), STRING, a -> {
                    if (a[0] == null) {
                        return null;
                    }
                    List<String> parts = new ArrayList<>();
                    for (int i = 1; i < a.length; i++) {
                        if (a[i] != null) {
                            parts.add((String) a[i]);
                        }
                    }
                    return String.join((String) a[0], parts);
                })));
        add.accept(Fn.fixed("lpad", "the text left-padded with pad (a space by default) to len characters, or cut to len", STRING, 2,
                List.of(STRING, INT, STRING), List.of(" "), a -> Text.pad((String) a[0], (Integer) a[1], (String) a[2], true)));
        add.accept(Fn.fixed("rpad", "the text right-padded with pad (a space by default) to len characters, or cut to len", STRING, 2,
                List.of(STRING, INT, STRING), List.of(" "), a -> Text.pad((String) a[0], (Integer) a[1], (String) a[2], false)));
        add.accept(Fn.fixed("replace", "every occurrence of search replaced by replace (removed when replace is not given)", STRING, 2,
                List.of(STRING, STRING, STRING), List.of(""), a -> ((String) a[1]).isEmpty() ? a[0] : ((String) a[0]).replace((String) a[1], (String) a[2])));
        add.accept(Fn.custom("split", 2, 3, "split(str STRING, regex STRING[, limit INT]) → ARRAY<STRING>", FunctionDef.NULL_IN_NULL_OUT,
                "the text split around matches of the regular expression", StringFunctions::split));
        add.accept(Fn.custom("regexp_extract", 2, 3, "regexp_extract(str STRING, regex STRING[, idx INT]) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "group idx (1 by default) of the first match, '' when none", StringFunctions::regexpExtract));
        add.accept(Fn.custom("regexp_replace", 3, 3, "regexp_replace(str STRING, regex STRING, rep STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "every match of the regular expression replaced by rep ($1 names a group)", StringFunctions::regexpReplace));
        add.accept(Fn.unary("initcap", "each word's first letter upper-cased, the rest lower-cased (words split at spaces)", STRING, STRING,
                v -> Text.initcap((String) v)));
        FunctionDef reverse = Fn.unary("reverse", "the characters in reverse order, or the array's elements", STRING, STRING, v -> Text.reverse((String) v));
        add.accept(Fn.custom("reverse", 1, 1, "reverse(STRING) → STRING, reverse(BINARY) → BINARY, reverse(ARRAY<T>) → ARRAY<T>",
                FunctionDef.NULL_IN_NULL_OUT, "the characters in reverse order, the bytes of a BINARY, or the array's elements",
                (call, args) -> ArrayFunctions.anyArray(args) ? ArrayFunctions.reverse(call, args.get(0))
                        : allBinary(args) ? call.apply(args, DataType.BINARY, (Kernel.Unary) v -> reverseBytes((byte[]) v))
                        : reverse.resolver().resolve(call, args)));
        add.accept(Fn.binary("instr", "the 1-based position of the first occurrence of substr, 0 if none", STRING, STRING, INT,
                (s, sub) -> Text.indexOf((String) s, (String) sub, 0)));
        add.accept(Fn.binary("repeat", "the text n times", STRING, INT, STRING, (s, n) -> ((String) s).repeat(Math.max(0, (Integer) n))));
        add.accept(Fn.unary("ascii", "the code of the first character, 0 for ''", STRING, INT,
                v -> ((String) v).isEmpty() ? 0 : ((String) v).codePointAt(0)));
        add.accept(Fn.binary("startswith", "whether the text starts with prefix", STRING, STRING, DataType.BOOLEAN,
                (s, p) -> ((String) s).startsWith((String) p)));
        add.accept(Fn.binary("endswith", "whether the text ends with suffix", STRING, STRING, DataType.BOOLEAN,
                (s, p) -> ((String) s).endsWith((String) p)));
        add.accept(Fn.binary("contains", "whether the text contains sub", STRING, STRING, DataType.BOOLEAN,
                (s, p) -> ((String) s).contains((String) p)));
    }

    /** Whether every argument is BINARY (not a VARIANT): Spark's concat and reverse then work on bytes. */
    private static boolean allBinary(List<Bound> args) {
        return !args.isEmpty() && args.stream().allMatch(b -> Types.is(b.type(), DataType.Kind.BINARY));
    }

    private static Object concatBytes(Object[] parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes((byte[]) p);
        }
        return out.toByteArray();
    }

    private static byte[] reverseBytes(byte[] bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[bytes.length - 1 - i];
        }
        return out;
    }

    private static Bound split(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING),
                args.size() > 2 ? call.as(args.get(2), INT) : new Bound.Literal(-1, INT, "-1")));
        Pattern fixed = cast.get(1) instanceof Bound.Literal l && l.value() != null ? Predicates.regex(call, (String) l.value()) : null;
        return call.apply(cast, Types.arrayOf(STRING), a -> {
            String s = (String) a[0];
            Pattern p = fixed != null ? fixed : Pattern.compile((String) a[1]);
            int limit = (Integer) a[2];
            List<String> parts = new ArrayList<>(Arrays.asList(p.split(s, limit > 0 ? limit : -1)));
            if (p.pattern().isEmpty() && limit <= 0 && parts.size() > 1 && parts.get(parts.size() - 1).isEmpty()) {
                parts.remove(parts.size() - 1); // Spark splits '' between characters, not after the last one
            }
            return parts;
        });
    }

    /** ltrim(str), rtrim(str), and Spark's ltrim(trimStr, str) (TRIM(LEADING trimStr FROM str)): one side's spaces or characters. */
    private static FunctionDef sideTrim(String name, String side, boolean left) {
        return Fn.custom(name, 1, 2, name + "([trimStr STRING, ]str STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the text without " + side + " spaces, or " + side + " characters of trimStr", (call, args) -> {
                    List<Bound> cast = args.stream().map(b -> call.as(b, STRING)).toList();
                    return cast.size() == 1 ? call.apply(cast, STRING, (Kernel.Unary) v -> Text.trim((String) v, left, !left))
                            : call.apply(cast, STRING, (Kernel.Binary) (t, s) -> TextKernels.trimSide((String) s, (String) t, left));
                });
    }

    private static Bound regexpExtract(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING),
                args.size() > 2 ? call.as(args.get(2), INT) : new Bound.Literal(1, INT, "1")));
        Pattern fixed = cast.get(1) instanceof Bound.Literal l && l.value() != null ? Predicates.regex(call, (String) l.value()) : null;
        return call.apply(cast, STRING, a -> {
            Pattern p = fixed != null ? fixed : Pattern.compile((String) a[1]);
            Matcher m = p.matcher((String) a[0]);
            int group = (Integer) a[2];
            if (!m.find()) {
                return ""; // Spark checks the group index on a match only
            }
            if (group < 0 || group > m.groupCount()) {
                throw Failure.of("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", "the regex has " + m.groupCount() + " groups, not " + group);
            }
            String g = m.group(group);
            return g == null ? "" : g;
        });
    }

    private static Bound regexpReplace(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = args.stream().map(b -> call.as(b, STRING)).toList();
        Pattern fixed = cast.get(1) instanceof Bound.Literal l && l.value() != null ? Predicates.regex(call, (String) l.value()) : null;
        return call.apply(cast, STRING, a -> {
            try {
                return (fixed != null ? fixed : Pattern.compile((String) a[1])).matcher((String) a[0]).replaceAll((String) a[2]);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) { // a replacement naming a group the pattern has not
                throw Failure.of("INVALID_REGEXP_REPLACE", "cannot replace with '" + a[2] + "': " + e.getMessage());
            }
        });
    }
}
