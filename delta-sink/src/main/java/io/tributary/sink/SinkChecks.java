package io.tributary.sink;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import io.tributary.sink.internal.DeleteCondition;
import io.tributary.sink.internal.Partitioning;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The sink's settings checked together (mode, keys, order, partitionBy against the rows' schema),
 * for a spec ({@link SinkConfig.Builder#build()}) and the Delta sink connector alike, each problem
 * worded with the keys as the user wrote them.
 */
public final class SinkChecks {
    private SinkChecks() {
    }

    /**
     * Every problem, by the setting at fault (the first of each); empty when there is none.
     *
     * @param schema the rows' schema, or null when it is not known yet (columns are then not checked)
     * @param name the key of a setting as the user wrote it
     */
    public static Map<Setting<?>, String> problems(Schema schema, SinkMode mode, List<String> keys, String order,
                                                   List<String> partitionBy, Function<Setting<?>, String> name) {
        Map<Setting<?>, String> out = new LinkedHashMap<>();
        String modeKey = name.apply(SinkSettings.MODE);
        String keysKey = name.apply(SinkSettings.KEYS);
        String orderKey = name.apply(SinkSettings.ORDER);
        if (mode == SinkMode.UPSERT && keys.isEmpty()) {
            out.putIfAbsent(SinkSettings.KEYS, keysKey + " is empty, but " + modeKey + " is upsert: an upsert needs the columns "
                    + "that identify a row; set " + keysKey + ", e.g. [id], or use " + modeKey + ": append");
        }
        if (mode == SinkMode.APPEND && !keys.isEmpty()) {
            out.putIfAbsent(SinkSettings.KEYS, keysKey + " " + keys + " is set, but " + modeKey + " is append, which writes every row "
                    + "and ignores keys; set " + modeKey + ": upsert to MERGE by these keys, or remove " + keysKey);
        }
        Set<String> seen = new HashSet<>();
        for (String k : keys) {
            if (schema != null && schema.indexOf(k) < 0) {
                out.putIfAbsent(SinkSettings.KEYS, keysKey + " names column '" + k + "', which is not in the sink's schema "
                        + schema.toDdl() + "; use columns of that schema");
            } else if (schema != null) {
                DataType type = schema.field(schema.indexOf(k)).type();
                if (type.kind() == DataType.Kind.ARRAY || type.kind() == DataType.Kind.MAP || type.holdsVariant()) {
                    out.putIfAbsent(SinkSettings.KEYS, keysKey + " names column '" + k + "' of type " + type.ddl()
                            + "; a key column must be of a primitive or STRUCT type (MERGE cannot match rows by arrays, maps or"
                            + " variants, which Spark does not compare)");
                }
            }
            if (!seen.add(k)) {
                out.putIfAbsent(SinkSettings.KEYS, keysKey + " names column '" + k + "' twice; list each key column once");
            }
        }
        if (order != null) {
            if (mode != SinkMode.UPSERT) {
                out.putIfAbsent(SinkSettings.ORDER, orderKey + " is '" + order + "', but " + modeKey + " is " + mode.specName()
                        + "; the order column only chooses among rows of one key in mode upsert: remove it or set mode upsert");
            } else if (schema != null && schema.indexOf(order) < 0) {
                out.putIfAbsent(SinkSettings.ORDER, orderKey + " names column '" + order + "', which is not in the sink's schema "
                        + schema.toDdl() + "; use a column of that schema, or leave it out to keep the last row in Kafka order");
            } else if (schema != null) {
                DataType type = schema.field(schema.indexOf(order)).type();
                DataType.Kind kind = type.kind();
                if (kind == DataType.Kind.STRUCT || kind == DataType.Kind.BINARY || kind == DataType.Kind.ARRAY || kind == DataType.Kind.MAP) {
                    out.putIfAbsent(SinkSettings.ORDER, orderKey + " names column '" + order + "' of type " + type.ddl()
                            + ", which has no order to choose the latest row by; use a number, string, date or timestamp column");
                }
            }
        }
        if (schema != null) {
            Partitioning partitioning = Partitioning.parse(partitionBy, schema); // fails early, naming the entry
            if (partitioning.hasDerivedColumns() && mode != SinkMode.APPEND) {
                String partitionKey = name.apply(SinkSettings.PARTITION_BY);
                out.putIfAbsent(SinkSettings.PARTITION_BY, partitionKey + " " + partitionBy + " derives a column, which only "
                        + modeKey + " append supports yet (mode " + mode.specName() + " rewrites rows without computing it);"
                        + " partition by a plain column, or use mode append");
            }
        } else if (mode != SinkMode.APPEND && partitionBy.stream().anyMatch(c -> c.toLowerCase(java.util.Locale.ROOT).contains(" as "))) {
            out.putIfAbsent(SinkSettings.PARTITION_BY, name.apply(SinkSettings.PARTITION_BY) + " " + partitionBy + " derives a column,"
                    + " which only " + modeKey + " append supports yet (mode " + mode.specName() + " rewrites rows without computing it);"
                    + " partition by a plain column, or use mode append");
        }
        return out;
    }

    /**
     * The problems of mode upsert's change-data settings ({@link SinkChanges}), by the setting at fault; empty when there is none.
     *
     * @param schema the rows' schema, or null when it is not known yet (columns are then not checked)
     * @param name the key of a setting as the user wrote it
     */
    public static Map<Setting<?>, String> changeProblems(Schema schema, SinkMode mode, List<String> keys, String order,
                                                         List<String> partitionBy, SinkChanges changes,
                                                         Function<Setting<?>, String> name) {
        Map<Setting<?>, String> out = new LinkedHashMap<>();
        String modeKey = name.apply(SinkSettings.MODE);
        String seqKey = name.apply(SinkSettings.SEQUENCE_BY);
        String deleteKey = name.apply(SinkSettings.DELETE_WHEN);
        String exceptKey = name.apply(SinkSettings.EXCEPT_COLUMNS);
        if (changes.active() && mode != SinkMode.UPSERT) {
            Setting<?> at = changes.sequenceBy() != null ? SinkSettings.SEQUENCE_BY
                    : changes.deleteWhen() != null ? SinkSettings.DELETE_WHEN
                    : changes.exceptColumns().isEmpty() ? SinkSettings.HISTORY : SinkSettings.EXCEPT_COLUMNS;
            out.put(at, name.apply(at) + " is set, but " + modeKey + " is " + mode.specName() + "; change data (sequenceBy,"
                    + " deleteWhen, exceptColumns) is applied by " + modeKey + ": upsert only: set it, or remove " + name.apply(at));
            return out;
        }
        String seq = changes.sequenceBy();
        if (seq != null && order != null) {
            out.put(SinkSettings.SEQUENCE_BY, seqKey + " '" + seq + "' and " + name.apply(SinkSettings.ORDER) + " '" + order
                    + "' are both set; " + seqKey + " already chooses the greatest change per key (within and across batches):"
                    + " remove " + name.apply(SinkSettings.ORDER));
        } else if (seq != null && schema != null && schema.indexOf(seq) < 0) {
            out.put(SinkSettings.SEQUENCE_BY, seqKey + " names column '" + seq + "', which is not in the sink's schema "
                    + schema.toDdl() + "; use a column of that schema");
        } else if (seq != null && schema != null && !orderable(schema.field(schema.indexOf(seq)).type())) {
            out.put(SinkSettings.SEQUENCE_BY, seqKey + " names column '" + seq + "' of type "
                    + schema.field(schema.indexOf(seq)).type().ddl()
                    + ", which has no order to choose the latest change by; use a number, string, date or timestamp column");
        }
        if (changes.history()) {
            historyProblem(schema, changes, name).ifPresent(p -> out.putIfAbsent(SinkSettings.HISTORY, p));
        }
        trackHistoryProblems(schema, keys, changes, name).forEach(out::putIfAbsent);
        if (changes.deleteWhen() != null && schema != null) {
            String problem = DeleteCondition.problem(schema, changes.deleteWhen());
            if (problem != null) {
                out.putIfAbsent(SinkSettings.DELETE_WHEN, deleteKey + " \"" + changes.deleteWhen() + "\" is not a condition over the"
                        + " sink's schema " + schema.toDdl() + ": " + problem);
            }
        }
        for (String c : changes.exceptColumns()) {
            String why = schema != null && schema.indexOf(c) < 0 ? "which is not in the sink's schema " + schema.toDdl()
                    : keys.contains(c) ? "a key column: the table needs it to find the key's row"
                    : c.equals(seq) ? "the " + seqKey + " column: the table keeps it to skip changes older than the key's row"
                    : partitionBy.contains(c) ? "a partition column of " + name.apply(SinkSettings.PARTITION_BY) : null;
            if (why != null) {
                out.putIfAbsent(SinkSettings.EXCEPT_COLUMNS, exceptKey + " names column '" + c + "', " + why
                        + "; remove it from " + exceptKey);
            }
        }
        if (changes.deleteRetention().isNegative()) {
            out.putIfAbsent(SinkSettings.DELETE_RETENTION, name.apply(SinkSettings.DELETE_RETENTION) + " is "
                    + changes.deleteRetention() + "; use 0 seconds or more, e.g. 7 days");
        }
        return out;
    }

    /** Why {@code history: true} cannot work with the others, if it cannot. */
    private static java.util.Optional<String> historyProblem(Schema schema, SinkChanges changes,
                                                             Function<Setting<?>, String> name) {
        String historyKey = name.apply(SinkSettings.HISTORY);
        if (changes.sequenceBy() == null) {
            return java.util.Optional.of(historyKey + " is true, but " + name.apply(SinkSettings.SEQUENCE_BY) + " is not set; a"
                    + " version's " + SinkChanges.START_AT + " and " + SinkChanges.END_AT + " are sequences: set it, e.g. lsn");
        }
        for (String column : List.of(SinkChanges.START_AT, SinkChanges.END_AT)) {
            if (schema != null && schema.indexOf(column) >= 0) {
                return java.util.Optional.of(historyKey + " is true, and the sink's schema " + schema.toDdl() + " has a column "
                        + column + ", which the history adds; rename it or leave it out with " + name.apply(SinkSettings.EXCEPT_COLUMNS));
            }
        }
        return java.util.Optional.empty();
    }

    /** Why {@code trackHistoryColumns} or {@code trackHistoryExceptColumns} cannot work, per setting. */
    private static Map<Setting<?>, String> trackHistoryProblems(Schema schema, List<String> keys, SinkChanges changes,
                                                               Function<Setting<?>, String> name) {
        Map<Setting<?>, String> out = new LinkedHashMap<>();
        SinkChanges.TrackHistory track = changes.trackHistory();
        Setting<?> at = track.columns().isEmpty() ? SinkSettings.TRACK_HISTORY_EXCEPT_COLUMNS : SinkSettings.TRACK_HISTORY_COLUMNS;
        String key = name.apply(at);
        if (!track.selective()) {
            return out;
        }
        if (!changes.history()) {
            out.put(at, key + " is set, but " + name.apply(SinkSettings.HISTORY) + " is not true; it chooses which changes open a"
                    + " new version of a key's history: set " + name.apply(SinkSettings.HISTORY) + ": true, or remove " + key);
        } else if (!track.columns().isEmpty() && !track.exceptColumns().isEmpty()) {
            out.put(at, key + " and " + name.apply(SinkSettings.TRACK_HISTORY_EXCEPT_COLUMNS) + " are both set; AUTO CDC's TRACK"
                    + " HISTORY ON takes columns or * EXCEPT columns, not both: remove one of them");
        }
        for (String c : track.columns().isEmpty() ? track.exceptColumns() : track.columns()) {
            String why = schema != null && schema.indexOf(c) < 0 ? "which is not in the sink's schema " + schema.toDdl()
                    : changes.exceptColumns().contains(c) ? "which " + name.apply(SinkSettings.EXCEPT_COLUMNS) + " leaves out of the table"
                    : keys.contains(c) ? "a key column: all of a key's versions have the same"
                    : c.equals(changes.sequenceBy()) ? "the " + name.apply(SinkSettings.SEQUENCE_BY) + " column: it changes with every"
                    + " change, and a version's " + SinkChanges.START_AT + " and " + SinkChanges.END_AT + " come from it" : null;
            if (why != null) {
                out.putIfAbsent(at, key + " names column '" + c + "', " + why + "; remove it from " + key);
            }
        }
        return out;
    }

    private static boolean orderable(DataType type) {
        DataType.Kind kind = type.kind();
        return kind != DataType.Kind.STRUCT && kind != DataType.Kind.BINARY && kind != DataType.Kind.ARRAY && kind != DataType.Kind.MAP;
    }
}
