package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Field;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregate table's columns come in the order the spec's select lists them, after the window
 * and the groupBy columns, as Spark's {@code agg(sum as s, count as c, avg as av)} writes them
 * (and not sorted by name).
 */
@Tag("integration")
@Timeout(300)
class AggregateColumnOrderScenarioTest {
    static final String SPEC = """
            name: order
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { s: sum(amt), c: count(*), av: avg(amt) }
            outputMode: complete
            sink:
              delta:
                path: agg/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void theTablesColumnsFollowTheSelect() {
        Workspace ws = new Workspace(dir, SPEC);
        ws.addFile("a.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-10-05T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 3.0, \"ts\": \"2026-10-05T10:02:00Z\"}",
                "{\"id\": 3, \"user\": \"b\", \"amt\": 2.0, \"ts\": \"2026-10-05T10:03:00Z\"}");
        ws.tributary("run").assertOk();

        String table = dir.resolve("agg").toString();
        List<String> columns = DeltaTables.schema(table).orElseThrow().fields().stream().map(Field::name).toList();
        assertThat(columns).containsExactly("window", "user", "s", "c", "av");
        List<String> rows = DeltaTables.readRows(table).stream()
                .map(r -> Arrays.asList(r).subList(1, r.length).toString()).toList();
        assertThat(rows).containsExactlyInAnyOrder("[a, 4.0, 2, 2.0]", "[b, 2.0, 1, 2.0]");
    }
}
