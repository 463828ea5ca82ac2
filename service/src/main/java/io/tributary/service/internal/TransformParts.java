package io.tributary.service.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.Transform;
import io.tributary.expressions.RowTransform;
import io.tributary.ingest.RowTransforms;
import io.tributary.ingest.TransformSettings;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.topology.AggregationSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the file source computes for the rest of the pipeline: {@code transform.where/select}, and the
 * columns {@code aggregate.groupBy} and {@code aggregate.select} name by an expression, which the file
 * source adds to its rows for the aggregation (docs/transform.md).
 */
final class TransformParts {
    private TransformParts() {
    }

    /**
     * Compiles {@code transform.where} and {@code transform.select} over the file source's schema when the
     * spec gives it, so that a bad expression (or an aggregation over a column the select does not make) is
     * refused before Kafka starts; an inferred schema is known only once Kafka is there.
     */
    static void check(PipelineSpec spec) {
        if (Settings.kafkaSource(spec::has)) {
            if ("addNewColumns".equals(spec.string(Settings.KAFKA_SCHEMA_EVOLUTION)) && transforms(spec)) {
                throw ServiceErrors.addNewColumnsWithTransform(Settings.KAFKA_SCHEMA_EVOLUTION);
            }
            if (!columnsFromRegistry(spec) && !PipelineParts.kafkaSubscription(spec).infersSchema()) { // else the registry gives them as the sink opens, and the transform is compiled then
                rowTransform(spec, PipelineParts.kafkaSubscription(spec).rowSchema()); // a Kafka source's columns are the spec's
            }
            return;
        }
        boolean computes = transforms(spec) || DedupParts.given(spec)
                || !groupByItems(spec).stream().allMatch(SelectItems::isColumn) || !aggregates(spec).computed().isEmpty();
        if (!spec.has(Settings.FILES_PATH) || !computes) {
            return;
        }
        Schema input = PipelineParts.fileSchema(spec);
        if (input != null) {
            Schema rows = PipelineParts.ingestConfig(spec, input, null, false).outputSchema();
            AggregationParts.aggregateSpec(spec, rows);
            DedupParts.spec(spec, rows);
        }
    }

    /** A Kafka source whose columns are a schema registry's latest schema of the subject, which the spec does not give. */
    private static boolean columnsFromRegistry(PipelineSpec spec) {
        return spec.has(Settings.KAFKA_SCHEMA_REGISTRY_URL) && !spec.has(Settings.KAFKA_AVRO_SCHEMA)
                && !spec.has(Settings.KAFKA_AVRO_SCHEMA_FILE) && !spec.has(Settings.KAFKA_PROTOBUF_DESCRIPTOR_FILE);
    }

    /**
     * The transform ({@code transform.join/where/select} or {@code sql:}) of a Delta or Kafka source over its rows,
     * {@code input}, compiled as the file source compiles it, with the columns {@code aggregate.groupBy} and
     * {@code aggregate.select} compute; null when the spec gives none of them. A refusal names the key and its line.
     */
    static RowTransform rowTransform(PipelineSpec spec, Schema input) {
        Map<String, String> computed = new java.util.LinkedHashMap<>();
        computedGroupBy(spec).forEach(i -> computed.put(i, Settings.GROUP_BY));
        aggregates(spec).computed().forEach(i -> computed.put(i, Settings.SELECT));
        if (!transforms(spec) && computed.isEmpty()) {
            return null;
        }
        try {
            return RowTransforms.compile(values(spec), input, location -> DeltaStaticTable.open(spec, location), computed);
        } catch (TributaryException e) {
            throw refusalAtItsLine(spec, e);
        }
    }

    /**
     * Whether the spec transforms the rows: {@code sql:}, or {@code transform.where}, {@code select}, {@code join},
     * {@code lateralView}, {@code withColumns}, {@code withColumnsRenamed} or {@code drop}.
     */
    static boolean transforms(PipelineSpec spec) {
        return spec.has(Settings.SQL) || spec.has(Settings.TRANSFORM_WHERE) || spec.has(Settings.TRANSFORM_SELECT)
                || !spec.map(Settings.TRANSFORM_JOIN).isEmpty() || !spec.map(Settings.TRANSFORM_LATERAL_VIEW).isEmpty()
                || !spec.map(Settings.TRANSFORM_WITH_COLUMNS).isEmpty() || !spec.map(Settings.TRANSFORM_WITH_COLUMNS_RENAMED).isEmpty()
                || spec.has(Settings.TRANSFORM_DROP);
    }

    /** The transform's settings as the spec gives them: {@code transform.*}, and {@code sql} at the top. */
    static Values values(PipelineSpec spec) {
        Map<String, Setting<?>> placed = new java.util.LinkedHashMap<>();
        TransformSettings.ALL.forEach(s -> placed.put(s.key(), s.under(Settings.TRANSFORM)));
        placed.put(TransformSettings.SQL.key(), TransformSettings.SQL);
        return spec.values(placed);
    }

    /** {@code aggregate.groupBy} as select items: columns, and expressions with a name that the file source computes. */
    static List<String> groupByItems(PipelineSpec spec) {
        try {
            return spec.has(Settings.GROUP_BY) ? SelectItems.split(spec.string(Settings.GROUP_BY)) : List.of();
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(Settings.GROUP_BY, e);
        }
    }

    /**
     * The aggregation's {@code select}, {@code columns} and {@code having} (null when not given) with each aggregate argument
     * that is an expression ({@code sum(amt * qty)}) read from a column the source computes ({@code sum(`_agg_t`)}), and
     * those columns as select items ({@code computed}). An aggregate of the select list is computed into {@code _agg_NAME} (its
     * second argument into {@code _agg2_NAME});
     * one inside an expression, in HAVING or in {@code columns} ({@code sum(amt * qty) / count(*)}) into {@code _agg_N}, or into
     * the column of the same argument (by its shape). A text that does not parse is left to the aggregation to refuse.
     */
    record Aggregates(Map<String, String> select, List<String> columns, String having, List<String> computed) {
    }

    static Aggregates aggregates(PipelineSpec spec) {
        Values values = AggregationParts.values(spec);
        Map<String, String> select = new java.util.LinkedHashMap<>();
        List<String> computed = new ArrayList<>();
        Map<String, String> byShape = new java.util.HashMap<>();
        Map<String, String> expressions = new java.util.LinkedHashMap<>();
        values.map(AggregationSettings.SELECT).forEach((name, text) -> {
            List<String> call = callOverAnExpression(text);
            if (call == null) {
                select.put(name, text); // a call over a column or *, or an expression over the aggregates: below
                expressions.put(name, text);
                return;
            }
            List<String> arguments = new ArrayList<>();
            for (int i = 1; i < call.size(); i++) {
                String argument = io.tributary.expressions.Having.computedArgument(call.get(0), call.get(i)); // schema_of_variant_agg's
                if (argument.equals(call.get(i)) && (io.tributary.expressions.Having.isConstantArgument(call.get(0), call.subList(1, call.size()), i - 1)
                        || argument.equals("*") || SelectItems.isColumn(argument) || SelectItems.isLiteral(argument))) {
                    arguments.add(argument);
                    continue;
                }
                String column = (i == 1 ? "_agg_" : "_agg" + i + "_") + name; // max_by(user, amt * qty): its second in _agg2_NAME
                computed.add(argument + " AS " + quoted(column));
                byShape.putIfAbsent(io.tributary.expressions.Having.shapeOf(argument), column);
                arguments.add(quoted(column));
            }
            select.put(name, io.tributary.expressions.Having.callText(call.get(0), arguments));
        });
        int named = computed.size();
        java.util.function.Function<String, String> newColumn = argument -> {
            String column = "_agg_" + (computed.size() - named);
            computed.add(argument + " AS " + quoted(column));
            return column;
        };
        List<String> columns = values.get(AggregationSettings.COLUMNS);
        String having = values.get(AggregationSettings.HAVING);
        expressions.forEach((name, text) -> select.put(name, argumentsAsColumns(text, byShape, newColumn)));
        if (columns != null) {
            columns = columns.stream().map(item -> {
                String text = SelectItems.expression(item);
                String rewritten = argumentsAsColumns(text, byShape, newColumn);
                return rewritten.equals(text) ? item : rewritten + " AS " + quoted(SelectItems.name(item));
            }).toList();
        }
        return new Aggregates(select, columns, having == null ? null : argumentsAsColumns(having, byShape, newColumn), List.copyOf(computed));
    }

    /** {@code [function, argument...]} when {@code text} is one aggregate call of which an argument is an expression, else null. */
    private static List<String> callOverAnExpression(String text) {
        if (!io.tributary.expressions.Having.isAggregateCall(text)) {
            return null;
        }
        try {
            List<String> call = SelectItems.aggregateCall(text);
            return call.subList(1, call.size()).stream().allMatch(a -> a.equals(io.tributary.expressions.Having.computedArgument(call.get(0), a))
                    && (a.equals("*") || SelectItems.isColumn(a) || SelectItems.isLiteral(a))) ? null : call;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String argumentsAsColumns(String text, Map<String, String> byShape, java.util.function.Function<String, String> newColumn) {
        try {
            return io.tributary.expressions.Having.argumentsAsColumns(text, byShape, newColumn);
        } catch (TributaryException e) {
            return text; // refused by the aggregation, naming its key
        }
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** The items of {@code aggregate.groupBy} that an expression computes. */
    static List<String> computedGroupBy(PipelineSpec spec) {
        return groupByItems(spec).stream().filter(i -> !SelectItems.isColumn(i)).toList();
    }

    private static final Pattern JOIN_KEY = Pattern.compile(
            "^(" + Pattern.quote(Settings.TRANSFORM_JOIN) + "(?:\\.\\d+)?)(\\.(?:table|as|on|type))?: .*", Pattern.DOTALL);
    private static final Pattern LATERAL_VIEW_KEY = Pattern.compile(
            "^(" + Pattern.quote(Settings.TRANSFORM_LATERAL_VIEW) + "(?:\\.\\d+)?)(\\.(?:generator|as|columns|outer))?: .*",
            Pattern.DOTALL);
    private static final Pattern COLUMN_STEP_KEY = Pattern.compile("^((?:"
            + Pattern.quote(Settings.TRANSFORM_WITH_COLUMNS) + "|" + Pattern.quote(Settings.TRANSFORM_WITH_COLUMNS_RENAMED)
            + ")\\.[^:]+|" + Pattern.quote(Settings.TRANSFORM_DROP) + "): .*", Pattern.DOTALL);

    /**
     * A refusal of {@code transform.join.N.x} (or {@code transform.lateralView.N.x}), led by the spec line of that key (of the
     * join's table, the view's generator, when x was not given); one of {@code transform.withColumns.NAME},
     * {@code transform.withColumnsRenamed.OLD} or {@code transform.drop}, by that key's line.
     */
    static TributaryException refusalAtItsLine(PipelineSpec spec, TributaryException e) {
        Matcher step = COLUMN_STEP_KEY.matcher(String.valueOf(e.getMessage()));
        if (step.matches() && spec.has(step.group(1))) {
            return ServiceErrors.at(spec.origin(step.group(1)), e); // transform.withColumns.user: at its line
        }
        Matcher m = JOIN_KEY.matcher(String.valueOf(e.getMessage()));
        String first = ".table";
        if (!m.matches()) {
            m = LATERAL_VIEW_KEY.matcher(String.valueOf(e.getMessage()));
            first = ".generator";
            if (!m.matches()) {
                return e;
            }
        }
        String key = m.group(1) + (m.group(2) == null ? first : m.group(2));
        String at = spec.has(key) ? key : m.group(1) + first;
        return ServiceErrors.at(spec.origin(at), e);
    }
}
