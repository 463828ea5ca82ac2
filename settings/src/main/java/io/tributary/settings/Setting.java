package io.tributary.settings;

import io.tributary.schema.ByteSizes;
import io.tributary.schema.Durations;
import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One setting, defined once: its key, kind, default, allowed values or range, parser and a line of
 * documentation, in the manner of Kafka's {@code ConfigDef}. A stage defines its settings under
 * their own names ({@code maxFilesPerTrigger}); the pipeline spec composes them under a prefix
 * ({@link #under}: {@code source.files.maxFilesPerTrigger}) and a Connect plugin under its own
 * names ({@link #named}), so a value is parsed by one parser and every error names the key as the
 * user wrote it. Immutable: each {@code with...} method returns a copy.
 *
 * @param <T> the type of a parsed value
 */
public final class Setting<T> {
    /**
     * The kinds of value. A {@code PATH} is a folder's path or a URI, a {@code FILE} a file's (both relative to the spec's
     * folder in a spec); a {@code MAP} takes any key below its own.
     */
    public enum Kind { STRING, PATH, FILE, INT, BYTES, DURATION, LIST, ENUM, BOOLEAN, TRIGGER, MAP }

    /** Turns text into a value, or throws a {@link TributaryException} whose message names {@code key}. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String key, String text);
    }

    private final String key;
    private final Kind kind;
    private final Parser<T> parser;
    private final String defaultValue;
    private final boolean required;
    private final List<String> allowed;
    private final long min;
    private final long max;
    private final String doc;
    private final String choices;

    private Setting(String key, Kind kind, Parser<T> parser, String defaultValue, boolean required, List<String> allowed,
                    long min, long max, String doc) {
        this(key, kind, parser, defaultValue, required, allowed, min, max, doc, null);
    }

    private Setting(String key, Kind kind, Parser<T> parser, String defaultValue, boolean required, List<String> allowed,
                    long min, long max, String doc, String choices) {
        this.key = key;
        this.kind = kind;
        this.parser = parser;
        this.defaultValue = defaultValue;
        this.required = required;
        this.allowed = List.copyOf(allowed);
        this.min = min;
        this.max = max;
        this.doc = doc;
        this.choices = choices;
    }

    private static <T> Setting<T> of(String key, Kind kind, Parser<T> parser, List<String> allowed, String doc) {
        return new Setting<>(key, kind, parser, null, false, allowed, Long.MIN_VALUE, Long.MAX_VALUE, doc, null);
    }

    /** Text, taken as it is. */
    public static Setting<String> string(String key, String doc) {
        return of(key, Kind.STRING, (k, v) -> v, List.of(), doc);
    }

    /** A folder: a path (relative to the spec's folder in a spec) or a URI of object storage. */
    public static Setting<String> path(String key, String doc) {
        return of(key, Kind.PATH, (k, v) -> v.strip(), List.of(), doc);
    }

    /** A file: a path (relative to the spec's folder in a spec). */
    public static Setting<String> file(String key, String doc) {
        return of(key, Kind.FILE, (k, v) -> v.strip(), List.of(), doc);
    }

    /** A whole number; limit it with {@link #within}. */
    public static Setting<Integer> integer(String key, String doc) {
        return of(key, Kind.INT, Setting::parseInt, List.of(), doc);
    }

    /** A size in bytes: {@code 1048576}, {@code 16m}, {@code 128 MiB} ({@link ByteSizes}). */
    public static Setting<Long> bytes(String key, String doc) {
        return of(key, Kind.BYTES, (k, v) -> ByteSizes.parse(v).orElseThrow(() ->
                SettingErrors.invalid(k, v, "expected a size such as 1048576, 16m or 128 MiB")), List.of(), doc);
    }

    /** A duration as Spark writes one: {@code 5 minutes}, {@code 500 ms}, {@code interval 1 week} ({@link Durations}). */
    public static Setting<Duration> duration(String key, String doc) {
        return of(key, Kind.DURATION, (k, v) -> Durations.parse(v).orElseThrow(() -> SettingErrors.invalid(k, v,
                "expected a duration, written as Spark does, e.g. \"5 minutes\", \"1 hour\", \"30 seconds\"")), List.of(), doc);
    }

    /** A list, written as a YAML list or one comma-separated string; blanks are dropped. */
    public static Setting<List<String>> list(String key, String doc) {
        return of(key, Kind.LIST, (k, v) -> Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList(),
                List.of(), doc);
    }

    /** One of {@code values}, in any case; the value is the spelling given here. */
    public static Setting<String> oneOf(String key, String doc, String... values) {
        return of(key, Kind.ENUM, null, List.of(values), doc);
    }

    /**
     * One of {@code values}, in any case, turned into a value by {@code parser}, which may also
     * take other spellings (Spark's {@code PERMISSIVE} for {@code deadLetter}).
     */
    public static <T> Setting<T> choice(String key, String doc, Parser<T> parser, String... values) {
        return of(key, Kind.ENUM, parser, List.of(values), doc);
    }

    /** {@code true} or {@code false}, in any case. */
    public static Setting<Boolean> bool(String key, String doc) {
        return of(key, Kind.BOOLEAN, (k, v) -> Boolean.parseBoolean(v), List.of("true", "false"), doc);
    }

    /** The keys below this one ({@code kafka.bootstrap.servers}), passed on untouched; read with {@link Values#map}. */
    public static Setting<Map<String, String>> map(String key, String doc) {
        return of(key, Kind.MAP, (k, v) -> Map.of(), List.of(), doc);
    }

    /** A value of its own kind, parsed by {@code parser}. */
    public static <T> Setting<T> custom(String key, Kind kind, Parser<T> parser, String doc) {
        return of(key, kind, parser, List.of(), doc);
    }

    /** This setting with {@code text} as its default. */
    public Setting<T> withDefault(String text) {
        return new Setting<>(key, kind, parser, text, required, allowed, min, max, doc, choices);
    }

    /** This setting, required. */
    public Setting<T> required() {
        return new Setting<>(key, kind, parser, defaultValue, true, allowed, min, max, doc, choices);
    }

    /** This setting with its whole-number values limited to {@code min..max}. */
    public Setting<T> within(long min, long max) {
        return new Setting<>(key, kind, parser, defaultValue, required, allowed, min, max, doc, choices);
    }

    /** This setting's values turned into what {@code parser} makes of them (one definition that two readers take their own way). */
    public <U> Setting<U> parsedBy(Parser<U> parser) {
        return new Setting<>(key, kind, parser, defaultValue, required, allowed, min, max, doc, choices);
    }

    /** This setting with another line of documentation (a Connect plugin's wording). */
    public Setting<T> withDoc(String text) {
        return new Setting<>(key, kind, parser, defaultValue, required, allowed, min, max, text, choices);
    }

    /** This setting, saying what its values do when one is wrong (after listing them). */
    public Setting<T> explainingChoices(String text) {
        return new Setting<>(key, kind, parser, defaultValue, required, allowed, min, max, doc, text);
    }

    /** This setting taking only some of its values, e.g. a plugin that reads one format of several. */
    public Setting<T> allowing(String... values) {
        return new Setting<>(key, kind, parser, defaultValue, required, List.of(values), min, max, doc, choices);
    }

    /** This setting under {@code prefix}: {@code maxFilesPerTrigger} under {@code source.files} is {@code source.files.maxFilesPerTrigger}. */
    public Setting<T> under(String prefix) {
        return named(prefix + "." + key);
    }

    /** This setting under another name. */
    public Setting<T> named(String name) {
        return new Setting<>(name, kind, parser, defaultValue, required, allowed, min, max, doc, choices);
    }

    /**
     * The value {@code text} gives, or an error naming {@code name} (the key as the user wrote it),
     * the value and what is expected.
     */
    @SuppressWarnings("unchecked")
    public T parse(String name, String text) {
        if (kind == Kind.ENUM || kind == Kind.BOOLEAN) {
            String canonical = allowed.stream().filter(a -> a.equalsIgnoreCase(text.strip())).findFirst().orElse(null);
            if (canonical != null) {
                return parser == null ? (T) canonical : parser.parse(name, canonical);
            }
            String problem = "use one of " + allowed + (choices != null ? ": " + choices : "");
            if (parser == null || kind == Kind.BOOLEAN) {
                throw SettingErrors.invalid(name, text, problem);
            }
            try {
                return parser.parse(name, text); // another spelling the parser knows, e.g. Spark's PERMISSIVE
            } catch (TributaryException e) {
                throw SettingErrors.invalid(name, text, problem);
            }
        }
        T value = parser.parse(name, text);
        if (value instanceof Number n && (n.longValue() < min || n.longValue() > max)) {
            throw SettingErrors.invalid(name, text, "give a whole number " + (max >= Integer.MAX_VALUE ? "of at least " + min : "from " + min + " to " + max));
        }
        return value;
    }

    private static Integer parseInt(String key, String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw SettingErrors.invalid(key, text, "expected a whole number");
        }
    }

    public String key() {
        return key;
    }

    public Kind kind() {
        return kind;
    }

    /** The default as text, as documented; null for none. */
    public String defaultValue() {
        return defaultValue;
    }

    public boolean isRequired() {
        return required;
    }

    /** The values an ENUM or BOOLEAN takes; empty for any. */
    public List<String> allowed() {
        return allowed;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public String doc() {
        return doc;
    }

    /** True for a {@link Kind#MAP}, which takes any key below its own. */
    public boolean isPrefix() {
        return kind == Kind.MAP;
    }

    /** The environment variable that sets it: {@code TRIBUTARY_} + the key upper-cased, dots as underscores. */
    public String envName() {
        return "TRIBUTARY_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    @Override
    public String toString() {
        return key;
    }

    /** A value that is not one of its setting's: {@code key 'k' is 'v'; } and what is expected. */
    public static final class Invalid extends TributaryException {
        private final String problem;

        Invalid(String key, String text, String problem) {
            super("key '" + key + "' is '" + text + "'; " + problem);
            this.problem = problem;
        }

        /** What is expected, without the key and value: for callers that name them their own way (Connect). */
        public String problem() {
            return problem;
        }
    }
}
