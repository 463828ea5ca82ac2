package io.tributary.service.spec;

import io.tributary.expressions.SqlQuery;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.internal.SpecErrors;
import io.tributary.topology.AggregationSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code sql:} query with {@code GROUP BY window(ts, ...), ...} as the {@code aggregate:} block it stands for: its
 * event time, window (slide, or session gap), group-by columns and aggregates become {@code aggregate.eventTime},
 * {@code window}, {@code slide} or {@code session}, {@code windowColumn} (the window's alias), {@code groupBy},
 * {@code select.NAME}, {@code columns} (a select list that is not those in that order) and {@code having}, placed where the query is written, so that the rest of the pipeline reads them
 * as it reads the block's. The watermark stays a setting
 * ({@code aggregate.watermark}), as SQL has no clause for it.
 */
final class SqlAggregationSpec {
    private SqlAggregationSpec() {
    }

    static void expand(Map<String, String> values, Map<String, String> origins) {
        String sql = values.get(Settings.SQL);
        if (sql == null) {
            return;
        }
        SqlQuery.Aggregation a;
        try {
            a = SqlQuery.parse(sql).aggregation();
        } catch (TributaryException refused) {
            return; // refused where the transform reads the query, naming the spec's line
        }
        if (a == null) {
            return;
        }
        String where = origins.getOrDefault(Settings.SQL, "spec");
        String groupBy = "GROUP BY at " + a.at().at() + " of the query";
        List<String> given = new ArrayList<>(List.of(Settings.EVENT_TIME, Settings.WINDOW, Settings.SLIDE, SESSION, WINDOW_COLUMN,
                Settings.GROUP_BY, COLUMNS));
        if (a.having() != null) {
            given.add(HAVING);
        }
        values.keySet().stream().filter(k -> k.startsWith(Settings.SELECT + ".")).forEach(given::add);
        for (String key : given) {
            if (values.containsKey(key)) {
                throw SpecErrors.sqlGroupByWithAggregateKey(origins.getOrDefault(key, "spec"), key, where, groupBy);
            }
        }
        if (!values.containsKey(Settings.WATERMARK)) {
            throw SpecErrors.sqlGroupByNeedsWatermark(where, groupBy, Settings.WATERMARK);
        }
        String origin = where + " (sql: " + groupBy + ")";
        put(values, origins, Settings.EVENT_TIME, a.eventTime(), origin);
        put(values, origins, Settings.WINDOW, a.window(), origin);
        put(values, origins, Settings.SLIDE, a.slide(), origin);
        put(values, origins, SESSION, a.session(), origin);
        put(values, origins, WINDOW_COLUMN, a.windowColumn(), origin);
        put(values, origins, Settings.GROUP_BY, a.groupBy().isEmpty() ? null : String.join(", ", a.groupBy()), origin);
        a.select().forEach((name, call) -> put(values, origins, Settings.SELECT + "." + name, call, origin));
        put(values, origins, COLUMNS, a.columns() == null ? null : String.join(", ", a.columns()), origin);
        if (a.having() != null) {
            put(values, origins, HAVING, a.having().text(), where + " (sql: HAVING at " + a.having().at() + " of the query)");
        }
    }

    private static final String SESSION = AggregationSettings.SESSION.under(Settings.AGGREGATE).key();
    private static final String WINDOW_COLUMN = AggregationSettings.WINDOW_COLUMN.under(Settings.AGGREGATE).key();
    private static final String HAVING = AggregationSettings.HAVING.under(Settings.AGGREGATE).key();
    private static final String COLUMNS = AggregationSettings.COLUMNS.under(Settings.AGGREGATE).key();

    private static void put(Map<String, String> values, Map<String, String> origins, String key, String value, String origin) {
        if (value != null) {
            values.put(key, value);
            origins.put(key, origin);
        }
    }
}
