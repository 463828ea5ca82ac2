package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tables a real {@code tributary run} and Spark left when the sink's upsert committed inside Spark's open
 * {@code DELETE}, {@code UPDATE}, {@code MERGE} or {@code OPTIMIZE} transaction ({@code golden/concurrency/open-transaction},
 * recorded by compat/spark's SparkOpenTransactions): Spark either committed its change on top of the sink's
 * commit or failed with a concurrent modification, and Spark read the table as one of the serial results.
 * The sink must read each table as Spark did, no key twice, and its next upsert must land on it as on any table.
 */
class SparkOpenTransactionGoldenTest {
    private static final String RECORDED = "golden/concurrency/open-transaction";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    static List<String> cases() throws IOException {
        try (Stream<Path> files = Files.list(recorded())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt")).map(n -> n.substring(0, n.length() - 4)).sorted().toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theTableSparkAndTheSinkLeftReadsAsSparkReadItAndTakesTheNextUpsert(String name) throws IOException {
        List<String> outcome = Files.readAllLines(recorded().resolve(name + ".txt"));
        assertThat(field(outcome, "equals")).as("%s: Spark's read equals a serial result", name).isNotEqualTo("none");
        Map<Integer, String> spark = sparkRows(outcome);

        Path table = Folders.copy(recorded().resolve(name), dir.resolve(name));
        assertThat(rows(table)).as("%s read by the sink", name).isEqualTo(spark);

        // the run's sink goes on: its next batch, from the offsets its commit left in the table
        long before = DeltaTables.latestVersion(table.toString());
        SinkOffsets held = DeltaTables.sinkOffsets(table.toString()).orElseThrow();
        long batchId = DeltaTables.transactionVersion(table.toString(), held.appId()).orElseThrow() + 1;
        Map<Integer, Long> next = Map.of(0, held.offsets().get(0) + 4);
        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of());
        CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w, attempt -> { }), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        upsert.write(held.appId(), batchId, batch(r(1, "next", 1.75), r(10, "next", 10.75), r(20, "next", 20.75), r(50, "next", 50.75)),
                held.offsets(), new SinkOffsets(held.appId(), held.topic(), held.topicId(), next));
        Map<Integer, String> expected = new TreeMap<>(spark);
        for (int id : List.of(1, 10, 20, 50)) {
            expected.put(id, "next/" + (id + 0.75));
        }
        assertThat(DeltaTables.latestVersion(table.toString())).isEqualTo(before + 1);
        assertThat(rows(table)).as("%s after the sink's next upsert", name).isEqualTo(expected);
        assertThat(DeltaTables.sinkOffsets(table.toString()).orElseThrow().offsets()).isEqualTo(next);
    }

    /** The value of line {@code key: value} of a recorded outcome. */
    private static String field(List<String> outcome, String key) {
        return outcome.stream().filter(l -> l.startsWith(key + ": ")).map(l -> l.substring(key.length() + 2)).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + key + ":' line"));
    }

    /** The rows Spark read (the JSON lines after {@code rows:}), as id -> "user/amt". */
    private static Map<Integer, String> sparkRows(List<String> outcome) throws IOException {
        Map<Integer, String> out = new TreeMap<>();
        for (String line : outcome.subList(outcome.indexOf("rows:") + 1, outcome.size())) {
            JsonNode r = JSON.readTree(line);
            assertThat(out.put(r.get("id").asInt(), r.get("user").asText() + "/" + r.get("amt").asDouble())).as("id %s twice", r.get("id")).isNull();
        }
        return out;
    }

    /** Every row of the table by id; a key held twice fails. */
    private static Map<Integer, String> rows(Path table) {
        Map<Integer, String> out = new TreeMap<>();
        List<Integer> twice = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table.toString())) {
            if (out.put((Integer) row[0], row[1] + "/" + row[2]) != null) {
                twice.add((Integer) row[0]);
            }
        }
        assertThat(twice).as("keys held twice in %s", table).isEmpty();
        return out;
    }

    private static Path recorded() {
        try {
            return Path.of(Objects.requireNonNull(SparkOpenTransactionGoldenTest.class.getClassLoader().getResource(RECORDED), RECORDED).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
