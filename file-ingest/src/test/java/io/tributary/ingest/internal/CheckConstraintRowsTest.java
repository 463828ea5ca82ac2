package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.ingest.BadRecord;
import io.tributary.ingest.BadRecordPolicy;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink table's CHECK constraints checked as the file source reads rows: on the row as the sink
 * writes it (after the select), a row breaking one being a bad record of its file and line.
 */
class CheckConstraintRowsTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    private static final Map<String, String> AMT_POSITIVE = Map.of("amt_positive", "amt > 0");

    @TempDir
    Path tmp;

    private FileStat file(String... lines) throws IOException {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Files.write(in.resolve("a.json"), List.of(lines));
        return FileDiscovery.restat(new FileStat("a.json", in.resolve("a.json"), 0, 0));
    }

    /** The rows published and the bad lines, as the ingest would send them. */
    private static List<String> read(IngestConfig config, FileStat f) throws IOException {
        List<String> out = new ArrayList<>();
        new FilePublisher(config, null, null).read(f, 1, new FilePublisher.Out() {
            @Override
            public void event(int partition, Long timestampMs, byte[] value) {
                out.addAll(new String(value, StandardCharsets.UTF_8).lines().toList());
            }

            @Override
            public void deadLetter(BadRecord record) {
                out.add("bad " + record.file() + ":" + record.line() + " " + record.field() + ": " + record.reason());
            }
        });
        return out;
    }

    @Test
    void aRowBreakingAConstraintAfterTheSelectIsABadRecordOfItsLine() throws IOException {
        IngestConfig config = IngestConfig.builder("p", tmp.resolve("in"), SCHEMA).transform(null, List.of("id", "amt - 1 AS amt"))
                .tableConstraints("/tables/out", AMT_POSITIVE).build();
        FileStat f = file("{\"id\": 1, \"amt\": 5.0}", "{\"id\": 2, \"amt\": 1.0}", "{\"id\": 3}", "{\"id\": 4, \"amt\": 9.0}");

        assertThat(read(config, f)).containsExactly(
                "bad a.json:2 amt_positive: violates CHECK constraint amt_positive (amt > 0): the expression is false for amt = 0.0",
                "bad a.json:3 amt_positive: violates CHECK constraint amt_positive (amt > 0): the expression is null for amt = null",
                "{\"id\":1,\"amt\":4.0}", "{\"id\":4,\"amt\":8.0}");
    }

    @Test
    void underFailTheFirstBrokenRowStopsNamingTheFileLineAndConstraint() throws IOException {
        IngestConfig config = IngestConfig.builder("p", tmp.resolve("in"), SCHEMA).onBadRecord(BadRecordPolicy.FAIL)
                .tableConstraints("/tables/out", AMT_POSITIVE).build();
        FileStat f = file("{\"id\": 1, \"amt\": 5.0}", "{\"id\": 2, \"amt\": -1.0}");

        assertThatThrownBy(() -> read(config, f)).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("bad record in a.json:2, field 'amt_positive': violates CHECK constraint amt_positive (amt > 0)")
                .hasMessageContaining("amt = -1.0");
    }

    @Test
    void aConstraintThatCannotBeCheckedOnTheRowsIsRefusedNamingIt() {
        assertThatThrownBy(() -> IngestConfig.builder("p", tmp.resolve("in"), SCHEMA)
                .tableConstraints("/tables/out", Map.of("broken", "amt >")).build())
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("delta table /tables/out has constraint broken CHECK (amt >)")
                .hasMessageContaining("DROP CONSTRAINT broken");
        // the select leaves out the column the constraint reads
        assertThatThrownBy(() -> IngestConfig.builder("p", tmp.resolve("in"), SCHEMA).transform(null, List.of("id", "user"))
                .tableConstraints("/tables/out", AMT_POSITIVE).build())
                .hasMessageStartingWith("delta table /tables/out has constraint amt_positive CHECK (amt > 0)")
                .hasMessageContaining("(id INT, user STRING)");
    }

    @Test
    void aGrownSchemaKeepsTheConstraints() throws IOException {
        IngestConfig config = IngestConfig.builder("p", tmp.resolve("in"), SCHEMA).tableConstraints("/tables/out", AMT_POSITIVE).build()
                .withSchema(Schema.parse("id INT, user STRING, amt DOUBLE, country STRING"));
        assertThat(config.constraints().texts()).isEqualTo(AMT_POSITIVE);
        assertThat(read(config, file("{\"id\": 1, \"amt\": -5.0, \"country\": \"x\"}"))).singleElement().asString()
                .startsWith("bad a.json:1 amt_positive");
    }
}
