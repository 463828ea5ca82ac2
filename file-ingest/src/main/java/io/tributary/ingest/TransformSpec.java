package io.tributary.ingest;

import io.tributary.expressions.CheckConstraints;
import io.tributary.expressions.ColumnSteps;
import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.FileMetadata;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.StreamStaticJoin;
import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.JoinErrors;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ingest's transform as given: {@code transform.where}, {@code transform.select}, the column steps after it
 * ({@code withColumns}, {@code withColumnsRenamed}, {@code drop}) and the columns the aggregation computes, with the keys they were written under, or the same from a {@code sql:} query
 * ({@link #sql}); {@link #compile} makes the {@link Transform} over a schema, again whenever the schema grows.
 * A refusal names the key (for a query, the place in it) and, from a spec, its line.
 */
final class TransformSpec {
    String where;
    List<String> select;
    /** The lateral views ({@code transform.lateralView}, or a query's {@code LATERAL VIEW}s), each as a query writes it; empty without. */
    List<String> lateral = List.of();
    /** The key each of {@link #lateral} was written under, for a refusal. */
    List<String> lateralKeys = List.of();
    String whereKey = "transform.where";
    String selectKey = "transform.select";
    /** {@code transform.withColumns}, {@code withColumnsRenamed} and {@code drop}, after the select; none without. */
    ColumnSteps steps = ColumnSteps.NONE;
    /** Where the values were written (a spec), to word a refusal; null when given by a program. */
    Values values;
    /** The name the stream's columns may be qualified by ({@code FROM source s}); null without {@code sql:}. */
    String sourceAlias;
    /** The key of the query ({@code sql}) the transform was translated from; null for {@code transform.*}. */
    String sqlKey;
    /** Columns computed for the aggregation, each select item with the key it comes from. */
    Map<String, String> computed = new LinkedHashMap<>();
    /** {@code transform.join}, in order; opened through {@link #opener}. */
    List<JoinSpec> joins = List.of();
    /** Each join's {@code USING} columns (a query's), which {@code *} gives first, as Spark does; empty lists for {@code ON}. */
    List<List<String>> using = List.of();
    /** Whether a select item that is always NULL without a type is a column the union types (a query of a {@code UNION ALL}). */
    boolean untypedNulls;
    /** Whether the first join's table is written before the stream in {@code sql:} ({@code FROM delta.`path` u JOIN source s}). */
    boolean tableFirst;
    StaticTable.Opener opener;
    long joinMaxRows = TransformSettings.DEFAULT_JOIN_MAX_ROWS;
    /** Tables opened so far, by location: shared by copies, so that a table is opened once. */
    Map<String, StaticTable> opened = new java.util.concurrent.ConcurrentHashMap<>();
    private Schema joinsFor;
    private Joins compiledJoins;
    /** The CHECK constraints of the table the rows go to (name to expression), and the table, for a refusal. */
    Map<String, String> constraints = Map.of();
    String constraintTable;
    /** Whether the rows come from files, whose facts ({@code _metadata}, {@code input_file_name()}) the transform may read. */
    boolean fileSource = true;
    /** The queries after the first of a {@code UNION ALL} in {@code sql:}; empty without. */
    List<SqlQuery.UnionAll> unionAll = List.of();
    /** The {@code sql:} query's {@code LIMIT}, or null without one. */
    SqlQuery.Limit limit;
    /** The union's queries compiled, over the schema it holds; shared by copies. */
    private UnionQueries.Compiled union;

    TransformSpec copy() {
        TransformSpec c = new TransformSpec();
        c.where = where;
        c.select = select;
        c.lateral = lateral;
        c.lateralKeys = lateralKeys;
        c.whereKey = whereKey;
        c.selectKey = selectKey;
        c.steps = steps;
        c.values = values;
        c.sourceAlias = sourceAlias;
        c.sqlKey = sqlKey;
        c.computed = new LinkedHashMap<>(computed);
        c.joins = joins;
        c.using = using;
        c.tableFirst = tableFirst;
        c.untypedNulls = untypedNulls;
        c.opener = opener;
        c.joinMaxRows = joinMaxRows;
        c.opened = opened;
        c.joinsFor = joinsFor;
        c.compiledJoins = compiledJoins;
        c.constraints = constraints;
        c.constraintTable = constraintTable;
        c.fileSource = fileSource;
        c.unionAll = unionAll;
        c.union = union;
        c.limit = limit;
        return c;
    }

    /** The table's constraints compiled over the rows published, {@code output}; a refusal names the table and the constraint. */
    CheckConstraints constraints(Schema output) {
        return CheckConstraints.compile(output, constraints,
                (name, expression, why) -> IngestErrors.constraintNotCheckable(constraintTable, name, expression, output.toDdl(), why));
    }

    /** Takes the transform of a {@code sql:} query, written under {@code key}: its joins, WHERE and select list, each named by its place. */
    void sql(SqlQuery query, String key) {
        sqlKey = key;
        unionAll = query.unionAll();
        limit = query.limit();
        joinsFor = null; // another query's joins
        compiledJoins = null;
        sourceAlias = query.sourceAlias();
        lateral = query.lateralViews().stream().map(SqlQuery.Part::text).toList();
        lateralKeys = query.lateralViews().stream().map(v -> key + " (LATERAL VIEW at " + v.at() + " of the query)").toList();
        where = query.where() == null ? null : query.where().text();
        whereKey = query.where() == null ? key : key + " (WHERE at " + query.where().at() + " of the query)";
        select = query.select().stream().map(SqlQuery.Part::text).toList();
        if (select.equals(List.of("*")) && lateral.isEmpty() || query.aggregation() != null) {
            select = null; // SELECT *, or a GROUP BY's columns (the aggregation's): the rows as they are (joined)
        }
        selectKey = key + " (SELECT at " + query.select().get(0).at() + " of the query)";
        joins = query.joins().stream().map(j -> new JoinSpec(j.table(), j.alias(), j.on().text(), j.type(),
                key + " (the join of delta.`" + j.table() + "`, ON at " + j.on().at() + " of the query)")).toList();
        using = query.joins().stream().map(SqlQuery.Join::using).toList();
        tableFirst = !query.joins().isEmpty() && query.joins().get(0).first();
    }

    /** Takes the block's {@code transform.join} and {@code transform.lateralView} given in {@code values}. */
    void block(Values values) {
        if (values.has(TransformSettings.JOIN)) {
            joins = TransformSettings.joins(values.map(TransformSettings.JOIN), values.name(TransformSettings.JOIN));
        }
        if (values.has(TransformSettings.LATERAL_VIEW)) {
            List<LateralViewSpec> views = TransformSettings.lateralViews(values.map(TransformSettings.LATERAL_VIEW),
                    values.name(TransformSettings.LATERAL_VIEW));
            lateral = views.stream().map(LateralViewSpec::text).toList();
            lateralKeys = views.stream().map(LateralViewSpec::key).toList();
        }
        steps = new ColumnSteps(values.map(TransformSettings.WITH_COLUMNS), values.map(TransformSettings.WITH_COLUMNS_RENAMED),
                values.get(TransformSettings.DROP), new ColumnSteps.Keys(values.name(TransformSettings.WITH_COLUMNS),
                        values.name(TransformSettings.WITH_COLUMNS_RENAMED), values.name(TransformSettings.DROP)));
    }

    /** The key a refusal of a join's {@code field} names: {@code transform.join.0.on}, or the join's place in the query. */
    private String joinKey(JoinSpec j, String field) {
        return sqlKey != null ? j.key() : j.key() + "." + field;
    }

    /** The joins over the stream's {@code schema} (none without {@code transform.join}); a refusal names the join's key. */
    Joins joins(Schema schema) {
        if (!unionAll.isEmpty()) {
            return union(schema).joins();
        }
        if (joins.isEmpty()) {
            return Joins.none();
        }
        if (compiledJoins != null && schema.equals(joinsFor)) {
            return compiledJoins;
        }
        try {
            return compileJoins(schema);
        } catch (TributaryException e) {
            throw sqlKey == null || values == null ? e : values.invalid(TransformSettings.SQL, e);
        }
    }

    private Joins compileJoins(Schema schema) {
        if (opener == null) {
            throw JoinErrors.noStaticTables();
        }
        List<StreamStaticJoin> made = new ArrayList<>();
        List<StaticTable> tables = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        Schema rows = schema;
        List<String> visible = schema.fields().stream().map(f -> f.name()).toList();
        for (int n = 0; n < joins.size(); n++) {
            JoinSpec j = joins.get(n);
            StreamStaticJoin.Type type;
            try {
                type = StreamStaticJoin.Type.parse(j.type());
            } catch (TributaryException e) {
                throw ExpressionErrors.inSetting(joinKey(j, "type"), e);
            }
            if (j.table() == null || j.table().isBlank()) {
                throw JoinErrors.joinNeedsTable(joinKey(j, "table"));
            }
            StaticTable table = opened.computeIfAbsent(j.table(), opener::open);
            if (table.version() < 0) {
                throw JoinErrors.noJoinTable(joinKey(j, "table"), j.table());
            }
            StreamStaticJoin join;
            try {
                join = StreamStaticJoin.compile(rows, visible, table.schema(), j.alias(), j.on(), type, joinMaxRows, sourceAlias);
            } catch (TributaryException e) {
                String part = j.alias() == null || j.alias().isBlank() || rows.indexOf(j.alias()) >= 0 ? "as" : "on";
                throw ExpressionErrors.inSetting(joinKey(j, part), e);
            }
            made.add(join);
            tables.add(table);
            keys.add(joinKey(j, "table")); // a refusal at a batch's start names the table
            rows = join.output();
            List<String> before = visible;
            visible = n == 0 && tableFirst ? tableFirst(join.visible(), before) : join.visible(); // Spark's * gives the table's first
            visible = n < using.size() ? usingFirst(visible, using.get(n)) : visible;
        }
        joinsFor = schema;
        compiledJoins = new Joins(made, tables, keys, rows, visible);
        return compiledJoins;
    }

    /** The visible columns with a join's {@code USING} columns first, in their order there, as Spark's {@code *} gives them. */
    private static List<String> usingFirst(List<String> visible, List<String> using) {
        List<String> first = new ArrayList<>();
        for (String u : using) {
            visible.stream().filter(v -> v.equalsIgnoreCase(u)).findFirst().filter(v -> !first.contains(v)).ifPresent(first::add);
        }
        List<String> out = new ArrayList<>(first);
        visible.stream().filter(v -> !first.contains(v)).forEach(out::add);
        return out;
    }

    /** The visible columns with those a join added to {@code before} (the stream's) first. */
    private static List<String> tableFirst(List<String> visible, List<String> before) {
        List<String> out = new ArrayList<>(visible.stream().filter(v -> !before.contains(v)).toList());
        out.addAll(visible.stream().filter(before::contains).toList());
        return out;
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /**
     * The select over the joined rows: "*" the visible columns, "alias.*" a table's columns, the stream's alias ("s.*")
     * its columns, none given the visible columns.
     */
    private List<String> joinedSelect(Joins j, Schema stream) {
        List<String> out = new ArrayList<>();
        List<String> given = select == null || select.isEmpty() ? List.of("*") : select;
        for (String item : given) {
            String t = item.strip();
            if (t.equals("*")) {
                j.visible().forEach(v -> out.add(quoted(v)));
                List<io.tributary.schema.Field> all = Transform.compileAs(j.output(), sourceAlias, lateral, null, null).output().fields();
                all.subList(j.output().size(), all.size()).forEach(f -> out.add(quoted(f.name()))); // the lateral views' columns
                continue;
            }
            String alias = t.endsWith(".*") ? t.substring(0, t.length() - 2).strip().replace("`", "") : null;
            if (alias != null && sourceAlias != null && alias.equalsIgnoreCase(sourceAlias)) {
                stream.fields().forEach(f -> out.add(quoted(f.name())));
                continue;
            }
            StreamStaticJoin of = alias == null ? null : j.join(alias);
            if (of != null) {
                of.table().fields().forEach(f -> out.add(quoted(of.alias()) + "." + quoted(f.name()) + " AS " + quoted(f.name())));
                continue;
            }
            out.add(item);
        }
        return out;
    }

    Transform compile(Schema streamSchema) {
        if (!unionAll.isEmpty()) {
            return union(streamSchema).first();
        }
        Joins joined = joins(streamSchema);
        Schema schema = joined.isEmpty() ? streamSchema : joined.output();
        if (fileSource && FileMetadata.mentioned(texts())) {
            schema = FileMetadata.withHidden(schema); // the file's facts, after the joined columns
        }
        List<String> select = joined.isEmpty() ? this.select : joinedSelect(joined, streamSchema);
        for (int i = 0; i < lateral.size(); i++) {
            try {
                Transform.compileAs(schema, sourceAlias, lateral.subList(0, i + 1), null, null);
            } catch (TributaryException e) {
                throw refused(TransformSettings.LATERAL_VIEW, lateralKeys.get(i), e);
            }
        }
        try {
            Transform.compileAs(schema, sourceAlias, lateral, where, null);
        } catch (TributaryException e) {
            throw refused(TransformSettings.WHERE, whereKey, e);
        }
        Transform selected;
        try {
            selected = Transform.compileAs(schema, sourceAlias, lateral, where, select, untypedNulls);
        } catch (TributaryException e) {
            throw refused(TransformSettings.SELECT, selectKey, e);
        }
        if (computed.isEmpty()) {
            return steps.after(selected, 0);
        }
        List<String> items = new ArrayList<>(select == null || select.isEmpty() ? List.of("*") : select);
        for (Map.Entry<String, String> c : computed.entrySet()) {
            try {
                Transform.compileAs(schema, sourceAlias, lateral, null, List.of(c.getKey()));
            } catch (TributaryException e) {
                throw ExpressionErrors.inSetting(c.getValue(), e);
            }
            items.add(c.getKey());
        }
        return steps.after(Transform.compileAs(schema, sourceAlias, lateral, where, items), computed.size());
    }

    /** The queries of a {@code UNION ALL} compiled over the stream's {@code schema}, once for a schema. */
    private UnionQueries.Compiled union(Schema schema) {
        if (union == null || !union.schema().equals(schema)) {
            union = UnionQueries.compile(this, schema);
        }
        return union;
    }

    /** The texts of the transform's expressions: its filter, select items, lateral views and computed columns. */
    private List<String> texts() {
        List<String> texts = new ArrayList<>(lateral);
        texts.add(where);
        texts.addAll(select == null ? List.of() : select);
        texts.addAll(computed.keySet());
        return texts;
    }

    private RuntimeException refused(Setting<?> setting, String key, TributaryException e) {
        TributaryException named = ExpressionErrors.inSetting(key, e);
        return values == null ? named : values.invalid(sqlKey != null ? TransformSettings.SQL : setting, named);
    }
}
