package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaInference;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schema inference against Spark's own: {@code golden/inference/<case>/} holds the input
 * ({@code in/}), the format, options and schema hints ({@code case.json}), the schema Spark 4.2's
 * reader inferred with the hints applied as Auto Loader documents them ({@code spark-schema.txt})
 * and the rows Spark read with it ({@code spark.jsonl}), written by {@code compat/spark}'s
 * {@code SparkInference}. Tributary must infer the same columns, in the same order, with the same
 * types, and read the same rows with them.
 */
class GoldenInferenceTest {
    private static final Path GOLDEN = Path.of("..", "golden", "inference");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(GOLDEN)) {
            return s.filter(p -> Files.exists(p.resolve("spark-schema.txt"))).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void infersWhatSparkInfers(String name) throws IOException {
        Path dir = GOLDEN.resolve(name);
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        String hints = spec.hasNonNull("hints") ? spec.get("hints").asText() : null;
        IngestConfig config = IngestConfig.builder("golden", dir.resolve("in"), FileFormat.textSchema())
                .format(spec.get("format").asText()).formatOptions(options).build();
        Schema ours = SchemaInference.infer(config, hints);
        String spark = Files.readString(dir.resolve("spark-schema.txt")).strip();
        assertThat(ours.toDdl()).as("case %s: the schema", name).isEqualTo(spark);

        List<JsonNode> rows = GoldenFormatsTest.read(dir.resolve("in"), FileFormat.of(spec.get("format").asText(), options), ours);
        assertThat(rows).as("case %s: the rows read with it", name)
                .containsExactlyInAnyOrderElementsOf(GoldenFormatsTest.expected(dir.resolve("spark.jsonl")));
    }
}
