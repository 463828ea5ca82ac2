package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.SinkTables;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tributary show on a real table written as the sink writes it: Spark's show() layout, JSON lines, filters, old versions. */
class ShowCommandTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, raw BINARY, tags ARRAY<STRING>");

    @TempDir
    Path dir;


    private CliRun tributary(String... args) {
        return CliRun.of(args);
    }

    /** Version 0: one row; version 1: two more. */
    private String table() {
        String table = dir.resolve("events").toString();
        SinkTables w = new SinkTables(table, SCHEMA, List.of(), "show-test");
        w.commit(List.<Object[]>of(new Object[] {1, "alice", 10.5, Timestamps.parseMicros("2024-03-10T01:30:00Z", true),
                new byte[] {0x4A, 0x6F}, List.of("a", "b")}));
        w.commit(List.of(new Object[] {2, null, -1.0, Timestamps.parseMicros("2024-03-10T02:30:00Z", true), null, null},
                new Object[] {3, "a name longer than twenty characters", 7.0, Timestamps.parseMicros("1969-12-31T23:59:59Z", true),
                        new byte[0], List.of()}));
        return table;
    }

    @Test
    void printsTheRowsAsSparksShowDoes() {
        CliRun r = tributary("show", table(), "--where", "id <> 2", "--select", "id, user, ts, raw, tags");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.subList(0, 3)).containsExactly(
                "+---+--------------------+-------------------+-------+------+",
                "| id|                user|                 ts|    raw|  tags|",
                "+---+--------------------+-------------------+-------+------+");
        assertThat(lines.subList(3, 5)).containsExactlyInAnyOrder(
                "|  1|               alice|2024-03-10 01:30:00|[4A 6F]|[a, b]|",
                "|  3|a name longer tha...|1969-12-31 23:59:59|     []|    []|");
        assertThat(lines).hasSize(6).last().isEqualTo("+---+--------------------+-------------------+-------+------+");
    }

    @Test
    void limitsTheRowsAndSaysSo() {
        CliRun r = tributary("show", table(), "-n", "2", "--select", "id, user");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.matches("\\|\\s+\\d\\|.*"))).hasSize(2);
        assertThat(r.out()).endsWith("only showing top 2 rows\n");
        assertThat(tributary("show", table(), "-n", "3").out()).doesNotContain("only showing");
    }

    @Test
    void printsJsonLinesWithNullsAndReadsAnOlderVersion() {
        String table = table();
        CliRun r = tributary("show", table, "--json", "--where", "id = 2", "--select", "id, user, amt * 2 AS twice");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("{\"id\":2,\"user\":null,\"twice\":-2.0}\n");
        CliRun old = tributary("show", table, "--version", "0", "--json", "--select", "id");
        assertThat(old.out()).isEqualTo("{\"id\":1}\n");
    }

    @Test
    void refusesWithOneLine() {
        String table = table();
        assertThat(tributary("show", dir.resolve("nothing").toString()).err()).contains("no Delta table at " + dir.resolve("nothing"));
        assertThat(tributary("show", table, "--where", "nope > 1").err()).contains("no column 'nope'");
        CliRun r = tributary("show", table, "--version", "9");
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("Cannot load table version 9").doesNotContain("\tat ");
    }
}
