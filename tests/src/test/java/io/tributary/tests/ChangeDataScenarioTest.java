package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A database's change feed as JSON files, applied to a table as Databricks' AUTO CDC does, through {@code tributary run}. */
@Tag("integration")
@Timeout(300)
class ChangeDataScenarioTest {
    static final String SPEC = """
            name: cdc
            source:
              files:
                path: in/
                format: json
                schema: "op STRING, id INT, name STRING, lsn BIGINT"
            sink:
              delta:
                path: customers/
                mode: upsert
                keys: [id]
                sequenceBy: lsn
                deleteWhen: "op = 'd'"
                exceptColumns: [op]
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void insertsUpdatesDeletesAndLateChangesEndAsTheSourceDatabase() {
        Workspace ws = new Workspace(dir, SPEC);
        String table = dir.resolve("customers").toString();
        ws.addFile("changes-1.json",
                "{\"op\": \"i\", \"id\": 1, \"name\": \"ann\", \"lsn\": 10}",
                "{\"op\": \"i\", \"id\": 2, \"name\": \"bob\", \"lsn\": 11}",
                "{\"op\": \"u\", \"id\": 1, \"name\": \"anne\", \"lsn\": 13}",
                "{\"op\": \"i\", \"id\": 3, \"name\": \"cy\", \"lsn\": 12}",
                "{\"op\": \"u\", \"id\": 1, \"name\": \"an\", \"lsn\": 12}",
                "{\"op\": \"d\", \"id\": 2, \"lsn\": 14}");
        ws.tributary("run").assertOk();
        assertThat(namesById(table)).containsExactly(Map.entry(1, "anne@13"), Map.entry(3, "cy@12"));

        ws.addFile("changes-2.json",
                "{\"op\": \"u\", \"id\": 2, \"name\": \"bob-late\", \"lsn\": 12}",
                "{\"op\": \"u\", \"id\": 3, \"name\": \"cy-late\", \"lsn\": 11}",
                "{\"op\": \"i\", \"id\": 4, \"name\": \"dee\", \"lsn\": 15}");
        Workspace.Result run = ws.tributary("run").assertOk();
        List<JsonNode> sink = run.progress("cdc/sink");
        assertThat(sink).hasSize(1);
        assertThat(sink.get(0).at("/sink/metrics/numSourceKeysSkippedOutOfOrder").asLong()).isEqualTo(2);
        assertThat(namesById(table)).as("a deleted key stays deleted; a late update is skipped")
                .containsExactly(Map.entry(1, "anne@13"), Map.entry(3, "cy@12"), Map.entry(4, "dee@15"));

        ws.addFile("changes-3.json", "{\"op\": \"i\", \"id\": 2, \"name\": \"bob-again\", \"lsn\": 16}");
        ws.tributary("run").assertOk();
        assertThat(namesById(table)).containsExactly(Map.entry(1, "anne@13"), Map.entry(2, "bob-again@16"), Map.entry(3, "cy@12"),
                Map.entry(4, "dee@15"));
    }

    @Test
    void aTableWithTheChangeDataFeedFeedsItsChangesToTheDeltaSourcesReadChangeFeed() {
        Workspace bronze = new Workspace(dir.resolve("bronze"), SPEC.replace("name: cdc", "name: bronze")
                .replace("    exceptColumns: [op]\n", "    exceptColumns: [op]\n    properties:\n      delta.enableChangeDataFeed: \"true\"\n"));
        Workspace feed = new Workspace(dir.resolve("feed"), """
                name: feed
                source:
                  delta:
                    path: ../bronze/customers/
                    readChangeFeed: true
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        bronze.addFile("changes-1.json",
                "{\"op\": \"i\", \"id\": 1, \"name\": \"ann\", \"lsn\": 10}",
                "{\"op\": \"i\", \"id\": 2, \"name\": \"bob\", \"lsn\": 11}");
        bronze.tributary("run").assertOk();
        feed.tributary("run").assertOk(); // the stream starts with the table's rows as inserts, as Spark's readChangeFeed does
        bronze.addFile("changes-2.json",
                "{\"op\": \"u\", \"id\": 1, \"name\": \"anne\", \"lsn\": 13}",
                "{\"op\": \"d\", \"id\": 2, \"lsn\": 14}",
                "{\"op\": \"i\", \"id\": 3, \"name\": \"cy\", \"lsn\": 15}");
        bronze.tributary("run").assertOk();
        feed.tributary("run").assertOk();

        List<String> changes = new java.util.ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("feed/out").toString())) {
            changes.add(r[4] + ":" + r[3] + ":" + r[0] + ":" + r[1] + "@" + r[2]); // version:_change_type:id:name@lsn
        }
        assertThat(changes).containsExactlyInAnyOrder("0:insert:1:ann@10", "0:insert:2:bob@11",
                "1:update_preimage:1:ann@10", "1:update_postimage:1:anne@13", "1:delete:2:bob@11", "1:insert:3:cy@15");
    }

    /** id to name@lsn; the table has no op column. */
    static Map<Integer, String> namesById(String table) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            assertThat(r).hasSize(3);
            out.put((Integer) r[0], r[1] + "@" + r[2]);
        }
        return out;
    }
}
