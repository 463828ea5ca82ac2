package io.tributary.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Schema;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delta-source on tables Spark 4.2 made with column mapping ({@code golden/column-mapping}): a column Spark
 * renamed publishes its old rows under the new name, a dropped column's values never come back (the column added
 * again under the same name is null in the old rows), as Spark's own read of the table.
 */
@Tag("integration")
class ColumnMappingSourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void theSnapshotPublishesSparksRowsUnderTheTablesCurrentNames(String mode) throws IOException {
        Path golden = golden(mode);
        Path table = Folders.copy(golden.resolve("table"), dir.resolve(mode));
        DeltaSourceConfig c = DeltaSourceConfig.builder("colmap-" + mode, table.toString()).build();
        try (DeltaSource source = new DeltaSource(c, KAFKA.client())) {
            assertThat(source.schema()).isEqualTo(Schema.parse("id INT, customer STRING, amt DOUBLE, region STRING, note STRING"));
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(7);
        }
        assertThat(rows(TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic())))
                .isEqualTo(rows(Files.readAllLines(golden.resolve("spark.jsonl"))));
    }

    /** Rows by id, each without its null columns (Spark's JSON leaves them out). */
    private static Map<Integer, Map<String, String>> rows(List<String> lines) throws IOException {
        Map<Integer, Map<String, String>> out = new TreeMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, String> row = new TreeMap<>();
            JsonNode n = JSON.readTree(line);
            n.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    row.put(e.getKey(), e.getValue().asText());
                }
            });
            out.put(n.get("id").asInt(), row);
        }
        return out;
    }

    private static Path golden(String mode) {
        try {
            return Path.of(Objects.requireNonNull(ColumnMappingSourceTest.class.getResource("/golden/column-mapping/" + mode), mode).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
