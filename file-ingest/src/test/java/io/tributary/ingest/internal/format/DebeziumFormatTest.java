package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaInference;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code format: debezium-json} on Debezium's documented example events of the PostgreSQL and
 * MySQL connectors (test resources {@code debezium/}: the customers table of Debezium's
 * documentation, as the JSON converter writes the events with and without its schemas): the rows
 * of after (before for a delete) with op and lsn; tombstones and truncates skipped and counted;
 * what is not an event a bad record naming the field.
 */
class DebeziumFormatTest {
    static final Schema CUSTOMERS = Schema.parse("id INT, first_name STRING, last_name STRING, email STRING");

    @TempDir
    Path tmp;

    /** What a file reads as: each row as a list, each bad record as "bad line N field: reason"; then the skipped count. */
    record Read(List<List<Object>> rows, List<String> bad, long skipped) {
    }

    private IngestConfig config(List<String> sequence, Map<String, String> options) {
        var b = IngestConfig.builder("dbz", tmp, CUSTOMERS).format("debezium-json").formatOptions(options);
        if (sequence != null) {
            b.debeziumSequence(sequence);
        }
        return b.build();
    }

    private Read read(IngestConfig config, String name, byte[] content) throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, content);
        List<List<Object>> rows = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        try (RawInput raw = new RawInput(Files.newInputStream(file));
             RecordReader records = new RecordReaders(config).open(name, raw, file)) {
            while (records.next()) {
                try {
                    rows.add(Arrays.asList(records.row()));
                } catch (BadRecordException e) {
                    bad.add("bad line " + records.line() + " " + e.field() + ": " + e.reason());
                }
            }
            return new Read(rows, bad, records.skipped());
        }
    }

    private Read fixture(IngestConfig config, String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/debezium/" + name)) {
            return read(config, name, in.readAllBytes());
        }
    }

    private Read lines(IngestConfig config, String... lines) throws IOException {
        return read(config, "events.jsonl", (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRowsSchemaIsTheTablesColumnsThenOpAndLsn() {
        assertThat(config(null, Map.of()).schema().toDdl())
                .isEqualTo("id INT, first_name STRING, last_name STRING, email STRING, op STRING, lsn BIGINT");
        assertThat(config(List.of("file", "pos", "row"), Map.of()).schema().toDdl()).endsWith("op STRING, lsn STRING");
    }

    @Test
    void postgresEventsGiveAfterOrADeletesKeyWithOpAndLsnAndSkipTombstoneAndTruncate() throws IOException {
        Read r = fixture(config(null, Map.of()), "postgres-customers.jsonl");
        assertThat(r.bad()).isEmpty();
        assertThat(r.rows()).containsExactly(
                List.of(1, "Anne", "Kretchmar", "annek@noanswer.org", "r", 24023128L),
                List.of(2, "Sally", "Thomas", "sally.thomas@acme.com", "c", 24023200L),
                List.of(1, "Anne Marie", "Kretchmar", "annek@noanswer.org", "u", 24023300L),
                Arrays.asList(2, null, null, null, "d", 46523128L)); // REPLICA IDENTITY DEFAULT: the before holds the key only
        assertThat(r.skipped()).as("the tombstone after the delete, and the truncate").isEqualTo(2);
    }

    @Test
    void theSchemaWrapperReadsAsTheBareEnvelope() throws IOException {
        Read r = fixture(config(null, Map.of()), "postgres-customers-schema.jsonl");
        assertThat(r.bad()).isEmpty();
        assertThat(r.rows()).containsExactly(
                List.of(1, "Anne", "Kretchmar", "annek@noanswer.org", "r", 24023128L),
                List.of(2, "Sally", "Thomas", "sally.thomas@acme.com", "c", 24023200L),
                List.of(1, "Anne Marie", "Kretchmar", "annek@noanswer.org", "u", 24023300L),
                Arrays.asList(2, null, null, null, "d", 46523128L));
        assertThat(r.skipped()).as("{\"schema\":null,\"payload\":null}, the converter's tombstone").isEqualTo(1);
    }

    @Test
    void mysqlEventsSequenceByBinlogFilePositionAndRow() throws IOException {
        Read r = fixture(config(List.of("file", "pos", "row"), Map.of()), "mysql-customers.jsonl");
        assertThat(r.bad()).isEmpty();
        assertThat(r.rows()).extracting(row -> row.get(0), row -> row.get(1), row -> row.get(4), row -> row.get(5)).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1001, "Sally", "r", "mysql-bin.000003 0000000000000000154 0000000000000000000"),
                org.assertj.core.groups.Tuple.tuple(1004, "Anne", "c", "mysql-bin.000003 0000000000000000154 0000000000000000000"),
                org.assertj.core.groups.Tuple.tuple(1004, "Anne Marie", "u", "mysql-bin.000003 0000000000000000484 0000000000000000000"),
                org.assertj.core.groups.Tuple.tuple(1004, "Anne Marie", "d", "mysql-bin.000003 0000000000000000805 0000000000000000000"));
        assertThat(r.skipped()).isEqualTo(1);
        // the text sequence sorts as the binlog does: a later file first, then a later position
        assertThat("mysql-bin.000003 0000000000000000805 0000000000000000000")
                .isLessThan("mysql-bin.000004 0000000000000000004 0000000000000000000")
                .isGreaterThan("mysql-bin.000003 0000000000000000484 0000000000000000001");
    }

    @Test
    void aJsonArrayOfWrappedEventsReadsWithMultiLine() throws IOException {
        Read r = fixture(config(List.of("pos"), Map.of("multiLine", "true")), "mysql-customers-schema.json");
        assertThat(r.bad()).isEmpty();
        assertThat(r.rows()).extracting(row -> row.get(4) + "@" + row.get(5)).containsExactly("r@154", "c@154", "u@484", "d@805");
        assertThat(r.skipped()).isEqualTo(1);
    }

    @Test
    void aSourceTimestampSequencesAnyConnector() throws IOException {
        Read r = fixture(config(List.of("ts_ms"), Map.of()), "mysql-customers.jsonl");
        assertThat(r.rows()).extracting(row -> row.get(5)).containsExactly(1465491400000L, 1465491411000L, 1465581029000L, 1465581902000L);
    }

    @Test
    void whatIsNotAnEventIsABadRecordNamingTheField() throws IOException {
        String src = "\"source\":{\"lsn\":7}";
        Read r = lines(config(null, Map.of()),
                "{\"id\": 1, \"first_name\": \"a\"}",
                "{\"before\":null,\"after\":{\"id\":1},\"op\":\"x\"," + src + "}",
                "{\"before\":null,\"after\":{\"id\":\"one\"},\"op\":\"c\"," + src + "}",
                "{\"before\":null,\"after\":{\"id\":1},\"op\":5," + src + "}",
                "{\"before\":null,\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"lsn\":\"0/16B3748\"}}",
                "{\"before\":null,\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"file\":\"a\"}}",
                "{\"before\":null,\"after\":null,\"op\":\"d\"," + src + "}",
                "{\"before\":null,\"after\":null,\"op\":\"u\"," + src + "}",
                "[1, 2]",
                "{\"before\":null,\"after\":{\"id\":9},\"op\":\"c\"," + src + "}");
        assertThat(r.bad()).hasSize(9);
        assertThat(r.bad().get(0)).startsWith("bad line 1 op: is missing");
        assertThat(r.bad().get(1)).startsWith("bad line 2 op: 'x' is not an operation");
        assertThat(r.bad().get(2)).startsWith("bad line 3 after.id: expected INT");
        assertThat(r.bad().get(3)).startsWith("bad line 4 op: expected a text");
        assertThat(r.bad().get(4)).startsWith("bad line 5 source.lsn: \"0/16B3748\" is not a whole number");
        assertThat(r.bad().get(5)).startsWith("bad line 6 source.lsn: is missing");
        assertThat(r.bad().get(6)).startsWith("bad line 7 before: is null in a delete");
        assertThat(r.bad().get(7)).startsWith("bad line 8 after: is null, but op is 'u'");
        assertThat(r.bad().get(8)).startsWith("bad line 9 null: not a Debezium change event");
        assertThat(r.rows()).containsExactly(Arrays.asList(9, null, null, null, "c", 7L));
    }

    @Test
    void theWrappersDebeziumTypesReadAsDatesTimestampsAndDecimals() throws IOException {
        IngestConfig config = IngestConfig.builder("dbz", tmp, Schema.parse(
                        "id INT, born DATE, seen TIMESTAMP, logged TIMESTAMP_NTZ, price DECIMAL(6,2), at TIMESTAMP, n BIGINT"))
                .format("debezium-json").build();
        String fields = "[{\"type\":\"int32\",\"field\":\"id\"},"
                + "{\"type\":\"int32\",\"name\":\"io.debezium.time.Date\",\"field\":\"born\"},"
                + "{\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\",\"field\":\"seen\"},"
                + "{\"type\":\"int64\",\"name\":\"io.debezium.time.Timestamp\",\"field\":\"logged\"},"
                + "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\",\"parameters\":{\"scale\":\"2\"},"
                + "\"field\":\"price\"},"
                + "{\"type\":\"string\",\"name\":\"io.debezium.time.ZonedTimestamp\",\"field\":\"at\"},"
                + "{\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\",\"field\":\"n\"}]";
        String schema = "{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"fields\":" + fields + ",\"field\":\"before\"},"
                + "{\"type\":\"struct\",\"fields\":" + fields + ",\"field\":\"after\"}]}";
        String after = "{\"id\":1,\"born\":19000,\"seen\":1700000000123456,\"logged\":1700000000123,\"price\":\"MDk=\","
                + "\"at\":\"2023-11-14T22:13:20.123456Z\",\"n\":7}";
        String tooBig = after.replace("\"MDk=\"", "\"AJiWgA==\""); // 10000000 unscaled: 100000.00 in DECIMAL(6,2)
        Read r = lines(config,
                "{\"schema\":" + schema + ",\"payload\":{\"before\":null,\"after\":" + after + ",\"op\":\"c\",\"source\":{\"lsn\":5}}}",
                "{\"schema\":" + schema + ",\"payload\":{\"before\":null,\"after\":" + tooBig + ",\"op\":\"c\",\"source\":{\"lsn\":6}}}",
                "{\"before\":null,\"after\":" + after + ",\"op\":\"c\",\"source\":{\"lsn\":7}}");
        assertThat(r.rows()).containsExactly(Arrays.asList(1, 19000, 1700000000123456L, 1700000000123000L, new java.math.BigDecimal("123.45"),
                1700000000123456L, 7L, "c", 5L));
        assertThat(r.bad()).as("a decimal too big; and without the wrapper a number is no DATE").containsExactly(
                "bad line 2 after.price: 100000.00 does not fit in DECIMAL(6,2)",
                "bad line 3 after.born: expected DATE, found an integer 19000");
    }

    @Test
    void opAndLsnAreTheFormatsOwnColumns() {
        assertThatThrownBy(() -> IngestConfig.builder("dbz", tmp, Schema.parse("id INT, op STRING")).format("debezium-json").build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("has a column 'op', which format debezium-json adds itself");
        assertThatThrownBy(() -> IngestConfig.builder("dbz", tmp, CUSTOMERS).debeziumSequence(List.of("lsn")).build())
                .hasMessageContaining("debezium.sequence: set, but the format is json");
        assertThatThrownBy(() -> config(List.of(), Map.of())).hasMessageContaining("names no field");
        assertThatThrownBy(() -> config(null, Map.of("inferTimestamp", "true")))
                .hasMessageContaining("not an option of the debezium-json format");
    }

    @Test
    void aSchemaIsNotInferred() throws IOException {
        Files.writeString(tmp.resolve("a.jsonl"), "null\n");
        IngestConfig placeholder = IngestConfig.builder("dbz", tmp, Schema.parse("value STRING")).format("debezium-json").build();
        assertThatThrownBy(() -> SchemaInference.infer(placeholder, null)).hasMessageContaining("the format does not infer one");
    }
}
