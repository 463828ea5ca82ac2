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

/**
 * A PostgreSQL table's Debezium change events, as files of the JSON converter's output, applied to
 * a table through {@code tributary run} ({@code format: debezium-json} into mode upsert): across
 * two runs, with changes out of order, duplicated, late for a deleted key, tombstones and both the
 * bare envelope and the schema wrapper, the table ends as the source table is; a MySQL table's
 * events, JSON arrays of wrapped events, ordered by binlog file, position and row (a STRING lsn).
 */
@Tag("integration")
@Timeout(300)
class DebeziumScenarioTest {
    static final String SPEC = """
            name: dbz
            source:
              files:
                path: in/
                format: debezium-json
                schema: "id INT, first_name STRING, last_name STRING, email STRING"
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
    /** The schema wrapper's schema, as the JSON converter writes it with schemas.enable (abridged: the reader skips it). */
    static final String WRAPPER_SCHEMA = "{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\","
            + "\"optional\":false,\"field\":\"id\"}],\"optional\":true,\"name\":\"pg.public.customers.Value\",\"field\":\"before\"}],"
            + "\"optional\":false,\"name\":\"pg.public.customers.Envelope\",\"version\":1}";

    @TempDir
    Path dir;

    /** A PostgreSQL connector's event of {@code op} at {@code lsn}: the envelope, or wrapped with its schema. */
    static String event(boolean wrapped, String op, String before, String after, long lsn) {
        String envelope = "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"2.7.3.Final\","
                + "\"connector\":\"postgresql\",\"name\":\"pg\",\"ts_ms\":" + (1_700_000_000_000L + lsn) + ",\"snapshot\":\""
                + (op.equals("r") ? "true" : "false") + "\",\"db\":\"shop\",\"schema\":\"public\",\"table\":\"customers\","
                + "\"txId\":" + (500 + lsn) + ",\"lsn\":" + lsn + ",\"xmin\":null},\"op\":\"" + op + "\",\"ts_ms\":"
                + (1_700_000_000_100L + lsn) + ",\"transaction\":null}";
        return wrapped ? "{\"schema\":" + WRAPPER_SCHEMA + ",\"payload\":" + envelope + "}" : envelope;
    }

    static String customer(int id, String first, String last) {
        return "{\"id\":" + id + ",\"first_name\":\"" + first + "\",\"last_name\":\"" + last + "\",\"email\":\""
                + first.toLowerCase().replace(' ', '.') + "@example.com\"}";
    }

    @Test
    void debeziumEventsOutOfOrderAndDuplicatedEndAsTheSourceTableAcrossRuns() {
        Workspace ws = new Workspace(dir, SPEC);
        String table = dir.resolve("customers").toString();
        ws.addFile("customers-0001.json",
                event(false, "r", "null", customer(1, "Anne", "Kretchmar"), 100),
                event(false, "r", "null", customer(2, "Sally", "Thomas"), 100),
                event(false, "c", "null", customer(3, "Edward", "Walker"), 200),
                event(false, "u", "null", customer(1, "Anne Marie", "Kretchmar"), 300),
                event(false, "u", "null", customer(1, "Anne M", "Kretchmar"), 250), // older than the update before it
                event(false, "d", "{\"id\":2}", "null", 400), // REPLICA IDENTITY DEFAULT: the key only
                "null", // the tombstone after the delete
                event(false, "c", "null", customer(3, "Edward", "Walker"), 200)); // delivered twice
        Workspace.Result first = ws.tributary("run").assertOk();
        assertThat(rowsById(table)).containsExactly(
                Map.entry(1, "Anne Marie Kretchmar anne.marie@example.com @300"),
                Map.entry(3, "Edward Walker edward@example.com @200"));
        assertThat(first.progress("dbz/ingest").get(0).at("/sources/0/metrics/numChangeEventsSkipped").asLong()).isEqualTo(1);

        ws.addFile("customers-0002.json",
                event(true, "u", "null", customer(2, "Sally", "Late"), 350), // after its key's delete (400): stays deleted
                event(true, "u", "null", customer(3, "Ed", "Walker"), 500),
                event(true, "u", "null", customer(1, "Anne Marie", "Kretchmar"), 300), // a duplicate of the last run's
                event(true, "c", "null", customer(4, "Jeff", "Kim"), 600),
                event(true, "d", customer(3, "Ed", "Walker"), "null", 700), // REPLICA IDENTITY FULL: the whole row
                "{\"schema\":null,\"payload\":null}",
                event(true, "c", "null", customer(3, "Edward", "Again"), 650), // older than its delete
                event(true, "u", "null", customer(4, "Jeff", "Kim-Lee"), 800));
        Workspace.Result second = ws.tributary("run").assertOk();
        List<JsonNode> sink = second.progress("dbz/sink");
        assertThat(sink).hasSize(1);
        assertThat(sink.get(0).at("/sink/metrics/numSourceKeysSkippedOutOfOrder").asLong()).as("keys 1 and 2").isEqualTo(2);
        assertThat(rowsById(table)).as("a deleted key stays deleted; older and repeated changes are skipped").containsExactly(
                Map.entry(1, "Anne Marie Kretchmar anne.marie@example.com @300"),
                Map.entry(4, "Jeff Kim-Lee jeff@example.com @800"));
    }

    /** A MySQL connector's event of {@code op} at binlog position {@code pos}, row {@code row} of its binlog event. */
    static String mysqlEvent(String op, String before, String after, String file, long pos, int row) {
        return "{\"schema\":" + WRAPPER_SCHEMA + ",\"payload\":{\"before\":" + before + ",\"after\":" + after + ",\"source\":{"
                + "\"version\":\"2.7.3.Final\",\"connector\":\"mysql\",\"name\":\"mysql-server-1\",\"ts_ms\":1465491411000,"
                + "\"snapshot\":\"" + (op.equals("r") ? "true" : "false") + "\",\"db\":\"inventory\",\"table\":\"customers\","
                + "\"server_id\":223344,\"gtid\":null,\"file\":\"" + file + "\",\"pos\":" + pos + ",\"row\":" + row
                + ",\"thread\":7,\"query\":null},\"op\":\"" + op + "\",\"ts_ms\":1465491411815}}";
    }

    @Test
    void mysqlEventsInJsonArraysSequencedByBinlogFilePositionAndRow() {
        Workspace ws = new Workspace(dir, SPEC.replace("name: dbz", "name: dbzmysql")
                .replace("format: debezium-json", "format: debezium-json\n    options: { multiLine: true }\n"
                        + "    debezium: { sequence: [file, pos, row] }"));
        String table = dir.resolve("customers").toString();
        ws.addFile("binlog-0001.json", "[",
                mysqlEvent("r", "null", customer(1001, "Sally", "Thomas"), "mysql-bin.000003", 154, 0) + ",",
                mysqlEvent("r", "null", customer(1002, "George", "Bailey"), "mysql-bin.000003", 154, 0) + ",",
                mysqlEvent("u", customer(1002, "George", "Bailey"), customer(1002, "George", "B"), "mysql-bin.000003", 980, 1) + ",",
                mysqlEvent("u", customer(1002, "George", "Bailey"), customer(1002, "George", "A"), "mysql-bin.000003", 980, 0) + ",",
                mysqlEvent("c", "null", customer(1004, "Anne", "Kretchmar"), "mysql-bin.000003", 154, 0) + ",",
                "null",
                "]");
        ws.tributary("run").assertOk();
        assertThat(rowsById(table)).containsExactly(
                Map.entry(1001, "Sally Thomas sally@example.com @mysql-bin.000003 0000000000000000154 0000000000000000000"),
                Map.entry(1002, "George B george@example.com @mysql-bin.000003 0000000000000000980 0000000000000000001"),
                Map.entry(1004, "Anne Kretchmar anne@example.com @mysql-bin.000003 0000000000000000154 0000000000000000000"));

        ws.addFile("binlog-0002.json", "[",
                mysqlEvent("d", customer(1004, "Anne", "Kretchmar"), "null", "mysql-bin.000004", 4, 0) + ",",
                mysqlEvent("u", customer(1002, "George", "B"), customer(1002, "George", "late"), "mysql-bin.000003", 990, 0) + ",",
                mysqlEvent("u", customer(1001, "Sally", "Thomas"), customer(1001, "Sally", "old"), "mysql-bin.000002", 99999, 0),
                "]");
        ws.tributary("run").assertOk();
        assertThat(rowsById(table)).as("a later binlog file is later whatever the position; the delete's file is the newest")
                .containsExactly(
                        Map.entry(1001, "Sally Thomas sally@example.com @mysql-bin.000003 0000000000000000154 0000000000000000000"),
                        Map.entry(1002, "George late george@example.com @mysql-bin.000003 0000000000000000990 0000000000000000000"));
    }

    /** id to "first last email @lsn"; the table holds the schema's columns and lsn, not op. */
    static Map<Integer, String> rowsById(String table) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            assertThat(r).hasSize(5);
            out.put((Integer) r[0], r[1] + " " + r[2] + " " + r[3] + " @" + r[4]);
        }
        return out;
    }
}
