package io.tributary.service.internal;

import io.tributary.expressions.ExpressionErrors;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
                || !groupByItems(spec).stream().allMatch(Transform::isColumn) || !aggregates(spec, new java.util.LinkedHashMap<>()).isEmpty();
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
     * {@code input}, compiled as the file source compiles it; null when the spec gives none. A refusal names the key and its line.
     */
    static RowTransform rowTransform(PipelineSpec spec, Schema input) {
        if (!transforms(spec)) {
            return null;
        }
        try {
            return RowTransforms.compile(values(spec), input, location -> DeltaStaticTable.open(spec, location));
        } catch (TributaryException e) {
            throw PipelineParts.joinRefusalAtItsLine(spec, e);
        }
    }

    /** Whether the spec transforms the rows: {@code sql:}, or {@code transform.where}, {@code select}, {@code join} or {@code lateralView}. */
    static boolean transforms(PipelineSpec spec) {
        return spec.has(Settings.SQL) || spec.has(Settings.TRANSFORM_WHERE) || spec.has(Settings.TRANSFORM_SELECT)
                || !spec.map(Settings.TRANSFORM_JOIN).isEmpty() || !spec.map(Settings.TRANSFORM_LATERAL_VIEW).isEmpty();
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
            return spec.has(Settings.GROUP_BY) ? Transform.selectItems(spec.string(Settings.GROUP_BY)) : List.of();
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(Settings.GROUP_BY, e);
        }
    }

    /**
     * {@code aggregate.select} with each aggregate whose argument is an expression ({@code sum(amt * qty)})
     * rewritten over a column the file source computes ({@code sum(_agg_t)}), put in {@code select}; the
     * computed columns as select items. An aggregate that does not parse as a call is left to the aggregation to refuse.
     */
    static List<String> aggregates(PipelineSpec spec, Map<String, String> select) {
        List<String> computed = new ArrayList<>();
        spec.map(Settings.SELECT).forEach((name, text) -> {
            if (!io.tributary.expressions.Having.isAggregateCall(text)) {
                select.put(name, text); // an expression over the aggregates, computed as the aggregated rows are written
                return;
            }
            List<String> call;
            try {
                call = Transform.aggregateCall(text);
            } catch (RuntimeException e) {
                select.put(name, text);
                return;
            }
            String arg = call.get(1);
            if (arg.equals("*") || Transform.isColumn(arg)) {
                select.put(name, text);
                return;
            }
            String column = "_agg_" + name;
            computed.add(arg + " AS `" + column.replace("`", "``") + "`");
            select.put(name, call.get(0) + "(`" + column.replace("`", "``") + "`)");
        });
        return computed;
    }

    /** The items of {@code aggregate.groupBy} that an expression computes. */
    static List<String> computedGroupBy(PipelineSpec spec) {
        return groupByItems(spec).stream().filter(i -> !Transform.isColumn(i)).toList();
    }
}
