package io.tributary.expressions;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spark's DataFrame column steps after a transform's select, in this order: {@code withColumns(Map)} (a name that matches a
 * column, ignoring case as Spark's default resolver does, replaces it in place under the name written; other names are appended
 * in the order written; every expression reads the columns as they were before the step), {@code withColumnsRenamed(Map)} (each
 * pair in turn renames every column that matches the old name; a missing old name is ignored) and {@code drop(names...)} (a
 * missing name is ignored). A refusal names the step's key and the column: {@code transform.withColumns.user}.
 *
 * @param withColumns  name to Spark SQL expression, in the order written
 * @param renamed      old name to new name, in the order written
 * @param drop         the names to drop
 * @param keys         the keys the three steps are written under, for a refusal: {@code transform.withColumns} ...
 */
public record ColumnSteps(Map<String, String> withColumns, Map<String, String> renamed, List<String> drop, Keys keys) {
    /** The keys of the three steps, as a refusal names them. */
    public record Keys(String withColumns, String renamed, String drop) {
    }

    public static final Keys KEYS = new Keys("withColumns", "withColumnsRenamed", "drop");
    public static final ColumnSteps NONE = new ColumnSteps(Map.of(), Map.of(), List.of(), KEYS);

    public ColumnSteps {
        withColumns = withColumns == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(withColumns));
        renamed = renamed == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(renamed));
        drop = drop == null ? List.of() : List.copyOf(drop);
        keys = keys == null ? KEYS : keys;
    }

    public boolean isEmpty() {
        return withColumns.isEmpty() && renamed.isEmpty() && drop.isEmpty();
    }

    /**
     * {@code first} followed by these steps over its rows; {@code first} itself when there are none. The last {@code tail}
     * columns of {@code first}'s rows (the columns an aggregation computes) pass through the steps untouched, after theirs.
     */
    public Transform after(Transform first, int tail) {
        if (isEmpty()) {
            return first;
        }
        Schema before = first.output();
        int width = before.size() - tail;
        List<String> added = check(before, width);
        Transform made = first;
        for (String name : added) { // a new column that reads an earlier one: each made in turn, after the columns before it
            List<String> items = new ArrayList<>();
            made.output().fields().forEach(f -> items.add(quoted(f.name())));
            items.add(item(withColumns.get(name), name));
            made = made.followedBy(Transform.compile(made.output(), null, items));
        }
        List<String> items = select(before, width, !added.isEmpty());
        try {
            return made.followedBy(Transform.compile(made.output(), null, items));
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(keys.withColumns(), e); // the steps' columns clash with the aggregation's
        }
    }

    /**
     * Checks each expression of {@code withColumns} over the first {@code width} columns of {@code before}, refusing one by its
     * key; the new columns, in order, when one of them reads a new column written before it (Spark's lateral column alias, as in
     * a select list: a name is the input's column first), else none.
     */
    private List<String> check(Schema before, int width) {
        Set<String> written = new HashSet<>();
        List<Field> fields = new ArrayList<>(before.fields().subList(0, width));
        List<String> added = new ArrayList<>();
        boolean lateral = false;
        for (Map.Entry<String, String> c : withColumns.entrySet()) {
            String key = keys.withColumns() + "." + c.getKey();
            if (!written.add(c.getKey().toLowerCase(Locale.ROOT))) {
                throw ExpressionErrors.inSetting(key, ExpressionErrors.columnAlreadyExists(c.getKey()));
            }
            if (c.getValue() == null || c.getValue().isBlank()) {
                throw ExpressionErrors.inSetting(key, ExpressionErrors.noStepExpression());
            }
            if (FileMetadata.mentioned(List.of(c.getValue()))) {
                throw ExpressionErrors.inSetting(key, ExpressionErrors.fileFactsInStep());
            }
            boolean isNew = matching(before, width, c.getKey()) < 0;
            Schema over = isNew ? new Schema(fields) : new Schema(before.fields().subList(0, width));
            Transform one;
            try {
                one = Transform.compile(over, null, List.of(item(c.getValue(), c.getKey())));
            } catch (TributaryException e) {
                throw ExpressionErrors.inSetting(key, e);
            }
            if (isNew) {
                lateral |= fields.size() > width && !compiles(new Schema(before.fields().subList(0, width)), c);
                fields.addAll(one.output().fields());
                added.add(c.getKey());
            }
        }
        return lateral ? added : List.of();
    }

    private static boolean compiles(Schema over, Map.Entry<String, String> c) {
        try {
            Transform.compile(over, null, List.of(item(c.getValue(), c.getKey())));
            return true;
        } catch (TributaryException e) {
            return false;
        }
    }

    /** The place of the column of {@code schema}'s first {@code width} whose name is {@code name} in any case, or -1. */
    private static int matching(Schema schema, int width, String name) {
        for (int i = 0; i < width; i++) {
            if (schema.field(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The select items that make the columns of the three steps from the first {@code width} columns of {@code before} (the new
     * columns already made after them when {@code made}), the rest passed through after them.
     */
    private List<String> select(Schema before, int width, boolean made) {
        List<String> names = new ArrayList<>(); // each output column's name, and what makes it
        List<String> sources = new ArrayList<>();
        Set<String> replaced = new HashSet<>();
        for (int i = 0; i < width; i++) {
            String name = before.field(i).name();
            String found = null;
            for (String n : withColumns.keySet()) {
                if (n.equalsIgnoreCase(name)) {
                    found = n;
                    break;
                }
            }
            names.add(found != null ? found : name);
            sources.add(found != null ? withColumns.get(found) : quoted(name));
            if (found != null) {
                replaced.add(found);
            }
        }
        withColumns.forEach((n, text) -> {
            if (!replaced.contains(n)) {
                names.add(n);
                sources.add(made ? quoted(n) : text);
            }
        });
        for (Map.Entry<String, String> r : renamed.entrySet()) { // Spark renames pair by pair: {a: b, b: c} makes a and b c
            if (r.getValue() == null || r.getValue().isBlank()) {
                throw ExpressionErrors.inSetting(keys.renamed() + "." + r.getKey(), ExpressionErrors.noNewName());
            }
            names.replaceAll(n -> n.equalsIgnoreCase(r.getKey()) ? r.getValue() : n);
        }
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (!seen.add(n.toLowerCase(Locale.ROOT))) {
                String old = renamed.entrySet().stream().filter(r -> r.getValue().equals(n)).map(Map.Entry::getKey).findFirst().orElse(n);
                throw ExpressionErrors.inSetting(keys.renamed() + "." + old, ExpressionErrors.columnAlreadyExists(n));
            }
        }
        List<String> items = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (drop.stream().noneMatch(d -> d.equalsIgnoreCase(n))) {
                items.add(item(sources.get(i), n));
            }
        }
        if (items.isEmpty()) {
            throw ExpressionErrors.inSetting(keys.drop(), ExpressionErrors.dropsEveryColumn(names));
        }
        for (int i = width; i < before.size(); i++) {
            items.add(quoted(before.field(i).name()));
        }
        return items;
    }

    private static String item(String expression, String name) {
        return expression + " AS " + quoted(name);
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
