package io.tributary.connect.internal;

import io.tributary.expressions.RowTransform;
import io.tributary.expressions.SqlQuery;
import io.tributary.ingest.RowTransforms;
import io.tributary.ingest.TransformSettings;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.storage.Storage;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * A connector's transform, by the pipeline's names without {@code transform.}: {@code join}, {@code lateralView},
 * {@code where}, {@code select}, {@code withColumns}, {@code withColumnsRenamed}, {@code drop}, {@code joinMaxRows}, or the
 * one query {@code sql}. Read and compiled by file-ingest's {@link TransformSettings} and {@link RowTransforms}, as a spec's are; what a connector cannot run (a query's
 * {@code GROUP BY}, the query beside the keys it stands for) is refused here, on the key.
 */
public final class TransformKeys {
    private TransformKeys() {
    }

    /** The keys that transform rows, besides {@code sql}. */
    private static final List<Setting<?>> PARTS = List.of(TransformSettings.JOIN, TransformSettings.LATERAL_VIEW, TransformSettings.WHERE,
            TransformSettings.SELECT, TransformSettings.WITH_COLUMNS, TransformSettings.WITH_COLUMNS_RENAMED, TransformSettings.DROP);

    /** The column steps after {@code select} and the join's bound, as both connectors document them for their flat keys. */
    public static final List<Setting<?>> COLUMN_STEPS = List.of(
            TransformSettings.WITH_COLUMNS.withDoc("Spark's withColumns(Map), applied after select: withColumns.NAME=expression, e.g."
                    + " withColumns.user=lower(trim(user)); a NAME that is a column (in any case) replaces it in place, others are"
                    + " appended; every expression reads the columns as select made them"),
            TransformSettings.WITH_COLUMNS_RENAMED.withDoc("Spark's withColumnsRenamed(Map), applied after withColumns:"
                    + " withColumnsRenamed.OLD=NEW; an OLD that is no column is ignored"),
            TransformSettings.DROP.withDoc("Spark's drop(names), applied after withColumnsRenamed: the columns to leave out, comma"
                    + " separated; a name that is no column is ignored"),
            TransformSettings.JOIN_MAX_ROWS.withDoc("the most rows a join table may have: it is held in memory by every task"
                    + " (Spark's broadcast join); a table with more is refused with its size"));

    /** Whether {@code values} transform the rows: {@code sql}, {@code where}, {@code select}, {@code join}, {@code lateralView} or a column step. */
    public static boolean given(Values values) {
        return values.has(TransformSettings.SQL) || PARTS.stream().anyMatch(values::has);
    }

    /**
     * What the connector cannot take of the transform, as a {@link ConfigException} on its key, or null: {@code sql}
     * with {@code where}, {@code select}, {@code join} or {@code lateralView}; a query with {@code GROUP BY}.
     */
    public static ConfigException problem(Values values, Map<String, String> props, String connector) {
        if (!values.has(TransformSettings.SQL)) {
            return null;
        }
        String sql = values.name(TransformSettings.SQL);
        for (Setting<?> part : PARTS) {
            if (values.has(part)) {
                String key = values.name(part);
                return new ConfigException(key, props.get(key), ConnectErrors.sqlWithTransform(key, sql).getMessage());
            }
        }
        SqlQuery.Aggregation a = values.get(TransformSettings.SQL).aggregation();
        if (a != null) {
            return new ConfigException(sql, props.get(sql), ConnectErrors.sqlGroupBy(sql, connector, a.at().at()).getMessage());
        }
        return null;
    }

    /**
     * The transform over {@code input}, its join tables read with the connector's {@code storage.} settings; a
     * refusal is a {@link ConfigException} on the key at fault (one of {@code keys}, else {@code fallback}).
     */
    public static RowTransform compile(Values values, Schema input, Storage storage, Collection<String> keys, String fallback,
            Map<String, String> props) {
        try {
            return RowTransforms.compile(values, input, JoinTables.opener(storage));
        } catch (ConfigException e) {
            throw e;
        } catch (TributaryException e) {
            throw onKey(e, keys, fallback, props);
        }
    }

    /** {@code e} as a {@link ConfigException} on the key its message starts with ({@code join.on: ...}), else on {@code fallback}. */
    public static ConfigException onKey(TributaryException e, Collection<String> keys, String fallback, Map<String, String> props) {
        String key = keys.stream().filter(k -> e.getMessage().startsWith(k + ":") || e.getMessage().startsWith(k + "."))
                .findFirst().orElse(fallback);
        return new ConfigException(key, props.get(key), e.getMessage());
    }
}
