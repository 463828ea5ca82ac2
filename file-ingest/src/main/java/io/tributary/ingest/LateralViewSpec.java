package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One {@code transform.lateralView} item as Spark's query writes it, {@code LATERAL VIEW [OUTER] explode(tags) t AS tag},
 * and the key it was written under ({@code transform.lateralView.0}) for refusals.
 */
public record LateralViewSpec(String text, String key) {
    /**
     * The view of an item's fields: {@code generator} (a generator call, {@code explode(tags)}), {@code as} (the view's name),
     * {@code columns} (its columns' names, comma-separated; null for the generator's own) and {@code outer} (true or false,
     * null for false); a missing name or generator, or another {@code outer}, is refused naming the field's key.
     */
    static LateralViewSpec of(String generator, String as, String columns, String outer, String key) {
        if (generator == null || generator.isBlank()) {
            throw IngestErrors.lateralViewKey(key + ".generator", "a lateral view needs a generator call");
        }
        if (as == null || as.isBlank()) {
            throw IngestErrors.lateralViewKey(key + ".as", "a lateral view needs a name, as Spark's LATERAL VIEW has (t in t.tag)");
        }
        String o = outer == null ? "false" : outer.strip().toLowerCase(Locale.ROOT);
        if (!o.equals("true") && !o.equals("false")) {
            throw IngestErrors.lateralViewKey(key + ".outer", "'" + outer + "' is not true or false");
        }
        List<String> names = columns == null ? List.of()
                : Arrays.stream(columns.split(",")).map(String::strip).filter(c -> !c.isEmpty()).toList();
        StringBuilder text = new StringBuilder("LATERAL VIEW ").append(o.equals("true") ? "OUTER " : "").append(generator.strip())
                .append(' ').append(quoted(as.strip()));
        if (!names.isEmpty()) {
            text.append(" AS ").append(String.join(", ", names.stream().map(LateralViewSpec::quoted).toList()));
        }
        return new LateralViewSpec(text.toString(), key);
    }

    private static String quoted(String name) {
        return name.startsWith("`") ? name : "`" + name.replace("`", "``") + "`";
    }
}
