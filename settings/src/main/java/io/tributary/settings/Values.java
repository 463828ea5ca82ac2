package io.tributary.settings;

import io.tributary.schema.TributaryException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The values of one stage's settings, wherever they were written: a pipeline spec (keys under a
 * prefix, {@code source.files.maxFilesPerTrigger}) or a Connect plugin's config (its own names).
 * A stage reads them by its own {@link Setting definitions}; this view finds the value under the
 * name the user wrote, parses it with the definition's parser and default (the place may change
 * the default, as a plugin does), and words a bad value with that name and the place's framing.
 */
public final class Values {
    /** Words a parse error for the place the values came from: the spec's line, or Connect's ConfigException. */
    @FunctionalInterface
    public interface Framing {
        RuntimeException invalid(Setting<?> local, String text, TributaryException problem);
    }

    private final Map<String, Setting<?>> local = new LinkedHashMap<>();
    private final Function<Setting<?>, String> text;
    private final Function<Setting<?>, Map<String, String>> below;
    private final Framing framing;

    /**
     * @param definitions the place's definitions, each keyed by the stage's name of it
     * @param text the text given for a place's definition, or null
     * @param below the keys and values below a {@link Setting.Kind#MAP} definition
     * @param framing how a bad value is worded
     */
    public Values(Map<String, Setting<?>> definitions, Function<Setting<?>, String> text,
                  Function<Setting<?>, Map<String, String>> below, Framing framing) {
        this.local.putAll(definitions);
        this.text = text;
        this.below = below;
        this.framing = framing;
    }

    /** Values given as a map by the stage's own keys, errors as the parser words them: for programs and tests. */
    public static Values of(Collection<Setting<?>> definitions, Map<String, String> values) {
        return localized(definitions, Function.identity(), values::get, (s, t, e) -> e);
    }

    /** The definitions as {@code rename} places them, their values read by their new keys. */
    public static Values localized(Collection<Setting<?>> definitions, Function<Setting<?>, Setting<?>> rename,
                                   Function<String, String> textByKey, Framing framing) {
        Map<String, Setting<?>> m = new LinkedHashMap<>();
        definitions.forEach(s -> m.put(s.key(), rename.apply(s)));
        return new Values(m, s -> textByKey.apply(s.key()), s -> Map.of(), framing);
    }

    /**
     * The value of {@code setting} (a stage's definition), or its default here, parsed; null when
     * neither is given, or when this place does not have the setting.
     */
    public <T> T get(Setting<T> setting) {
        Setting<T> s = defined(setting);
        if (s == null) {
            return null; // not a setting here: the stage keeps its own default
        }
        String t = text.apply(s);
        if (t == null) {
            t = s.defaultValue();
        }
        if (t == null) {
            return null;
        }
        try {
            return s.parse(s.key(), t);
        } catch (TributaryException e) {
            throw framing.invalid(s, t, e);
        }
    }

    /** Hands the value of {@code setting} (or its default here) to {@code to}, when there is one. */
    public <T> void ifGiven(Setting<T> setting, java.util.function.Consumer<T> to) {
        T v = get(setting);
        if (v != null) {
            to.accept(v);
        }
    }

    /** True when the user gave a value (a default does not count); for a {@link Setting.Kind#MAP}, a key below it. */
    public boolean has(Setting<?> setting) {
        Setting<?> s = defined(setting);
        if (s == null) {
            return false;
        }
        return s.isPrefix() ? !below.apply(s).isEmpty() : text.apply(s) != null;
    }

    /** The keys below a {@link Setting.Kind#MAP} setting, without its prefix, in the order given. */
    public Map<String, String> map(Setting<?> setting) {
        Setting<?> s = defined(setting);
        return s == null ? Map.of() : below.apply(s);
    }

    /**
     * {@code problem} with a value worded for this place (the spec's line, Connect's ConfigException): for a
     * value that parsed but that the stage refuses later, such as an expression over a schema known only then.
     */
    public RuntimeException invalid(Setting<?> setting, TributaryException problem) {
        Setting<?> s = local(setting);
        return framing.invalid(s, text.apply(s), problem);
    }

    /** The key as the user writes it here: {@code source.files.maxFilesPerTrigger} in a spec. */
    public String name(Setting<?> setting) {
        return local(setting).key();
    }

    /** This place's definition of a stage's setting (its name and default here), or the stage's own if the place has none. */
    public <T> Setting<T> local(Setting<T> setting) {
        Setting<T> s = defined(setting);
        return s == null ? setting : s;
    }

    @SuppressWarnings("unchecked")
    private <T> Setting<T> defined(Setting<T> setting) {
        return (Setting<T>) local.get(setting.key());
    }
}
