package io.tributary.ingest;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.Transform;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import java.util.List;

/**
 * The row transform's settings under their own names; a spec writes them under {@code transform.}
 * ({@code transform.where}, {@code transform.select}). {@link IngestConfigBuilder#transform(io.tributary.settings.Values)}
 * reads them; the expressions are Spark SQL, checked when the pipeline starts (docs/transform.md).
 */
public final class TransformSettings {
    public static final Setting<String> WHERE = Setting.string("where", "Spark's filter/where: a Spark SQL boolean expression; only the"
            + " rows where it is true are published, e.g. \"amt > 0 AND user IS NOT NULL\" (docs/transform.md)");
    public static final Setting<List<String>> SELECT = Setting.custom("select", Setting.Kind.LIST, (k, v) -> SelectItems.split(v),
            "Spark's selectExpr: the output columns, each \"*\", a column or \"expression AS name\", e.g. [\"*\", \"lower(trim(user)) AS"
                    + " user\"]; applied after where; the table gets these columns (docs/transform.md)");
    public static final Setting<java.util.Map<String, String>> WITH_COLUMNS = Setting.map("withColumns", "Spark's withColumns(Map),"
            + " applied after select: {name: expression}; a name that is a column (in any case) replaces it in place, others are"
            + " appended in the order written; every expression reads the columns as select made them, e.g. {user: \"lower(trim(user))\","
            + " day: \"to_date(ts)\"} (docs/transform.md)");
    public static final Setting<java.util.Map<String, String>> WITH_COLUMNS_RENAMED = Setting.map("withColumnsRenamed",
            "Spark's withColumnsRenamed(Map), applied after withColumns: {old: new}, each pair in turn; an old name that is no column is"
                    + " ignored, as Spark ignores it (docs/transform.md)");
    public static final Setting<List<String>> DROP = Setting.list("drop", "Spark's drop(names): the columns to leave out, applied after"
            + " withColumnsRenamed; a name that is no column is ignored, as Spark ignores it (docs/transform.md)");

    public static final long DEFAULT_JOIN_MAX_ROWS = 1_000_000;
    public static final Setting<java.util.Map<String, String>> JOIN = Setting.map("join", "Spark's stream-static joins with Delta"
            + " tables, applied before where and select: a list of {table: path or URI, as: alias, on: \"user = u.user\","
            + " type: inner|left|left_semi|left_anti}; each table is read at a batch's start when it has a new version (docs/transform.md)");
    public static final Setting<java.util.Map<String, String>> LATERAL_VIEW = Setting.map("lateralView", "Spark's LATERAL VIEW,"
            + " applied after join and before where: a list of {generator: \"explode(tags)\", as: t, columns: [tag], outer: false},"
            + " each joining a row with the generator's rows (outer: true keeps a row it makes none of, with nulls); its columns,"
            + " tag or t.tag, are the row's for where and select (docs/transform.md)");
    public static final Setting<Integer> JOIN_MAX_ROWS = Setting.integer("joinMaxRows", "the most rows a join table may have: it is"
            + " held in memory (Spark's broadcast join); a table with more is refused with its size (docs/transform.md)")
            .withDefault(String.valueOf(DEFAULT_JOIN_MAX_ROWS)).within(1, Integer.MAX_VALUE);

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(JOIN, LATERAL_VIEW, WHERE, SELECT, WITH_COLUMNS, WITH_COLUMNS_RENAMED, DROP,
            JOIN_MAX_ROWS);

    /**
     * The transform as one Spark SQL query, instead of {@code transform.join/where/select}: a spec writes it at the top,
     * {@code sql:}, beside {@code transform.joinMaxRows}; parsed (and what it cannot express refused) where it is written.
     */
    public static final Setting<SqlQuery> SQL = Setting.custom("sql", Setting.Kind.STRING, TransformSettings::query,
            "the transform as one Spark SQL query instead of transform.join/where/select: SELECT ... FROM source [s] [[LEFT | LEFT SEMI"
                    + " | LEFT ANTI] JOIN delta.`path` u ON ...] [WHERE ...] [GROUP BY window(ts, ...), ...: the aggregate: block, with"
                    + " aggregate.watermark] (docs/transform.md)");

    private static SqlQuery query(String key, String text) {
        try {
            return SqlQuery.parse(text);
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }

    /**
     * The joins of {@code transform.join} as given below it: a list gives {@code 0.table}, {@code 0.as} ...;
     * one join may also be written as a mapping ({@code table}, {@code as} ...).
     *
     * @param prefix the key the map is under, for refusals ({@code transform.join})
     */
    public static List<JoinSpec> joins(java.util.Map<String, String> below, String prefix) {
        List<JoinSpec> out = new java.util.ArrayList<>();
        items(below, prefix, List.of("table", "as", "on", "type"), io.tributary.ingest.internal.JoinErrors::unknownJoinKey)
                .forEach((key, m) -> out.add(new JoinSpec(m.get("table"), m.get("as"), m.get("on"), m.getOrDefault("type", "inner"), key)));
        return out;
    }

    /**
     * The items of a list of mappings as given below {@code prefix} ({@code 0.table}, {@code 1.table} ..., or one mapping's
     * {@code table}), each by the key it was written under ({@code prefix.0}, or {@code prefix}); a field not among
     * {@code fields} is refused by {@code unknown} with its key and name.
     */
    private static java.util.Map<String, java.util.Map<String, String>> items(java.util.Map<String, String> below, String prefix,
            List<String> fields, java.util.function.BiFunction<String, String, TributaryException> unknown) {
        java.util.Map<String, java.util.Map<String, String>> items = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, String> e : below.entrySet()) {
            String k = e.getKey();
            int dot = k.indexOf('.');
            String index = dot > 0 && k.substring(0, dot).chars().allMatch(Character::isDigit) ? k.substring(0, dot) : "";
            String field = index.isEmpty() ? k : k.substring(dot + 1);
            String key = prefix + (index.isEmpty() ? "" : "." + index);
            if (!fields.contains(field)) {
                throw unknown.apply(key + "." + field, field);
            }
            items.computeIfAbsent(key, i -> new java.util.LinkedHashMap<>()).put(field, e.getValue());
        }
        return items;
    }

    /**
     * The lateral views of {@code transform.lateralView} as given below it (a list gives {@code 0.generator}, {@code 0.as} ...;
     * one view may be a mapping), each as Spark's query writes it ({@code LATERAL VIEW OUTER explode(tags) t AS tag}) with the
     * key it was written under; a missing or unknown field, or an {@code outer} that is not true or false, is refused naming its key.
     *
     * @param prefix the key the map is under ({@code transform.lateralView})
     */
    public static List<LateralViewSpec> lateralViews(java.util.Map<String, String> below, String prefix) {
        List<LateralViewSpec> out = new java.util.ArrayList<>();
        items(below, prefix, List.of("generator", "as", "columns", "outer"),
                (key, field) -> io.tributary.ingest.internal.IngestErrors.lateralViewKey(key, "unknown key '" + field + "'"))
                .forEach((key, m) -> out.add(LateralViewSpec.of(m.get("generator"), m.get("as"), m.get("columns"), m.get("outer"), key)));
        return out;
    }

    private TransformSettings() {
    }
}
