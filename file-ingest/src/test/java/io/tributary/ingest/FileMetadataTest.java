package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file's facts a row reads, as Spark's file source gives them: {@code input_file_name()} and the hidden
 * {@code _metadata} column, against what Spark 4.2 gave for the same files ({@code golden/file-metadata}).
 */
@Tag("integration")
@Timeout(180)
class FileMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    static Values sql(String query) {
        return Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.of("sql", query)::get,
                (s, t, e) -> e);
    }

    /** The golden case's files copied to {@code in}, each with the modification time Spark's read saw. */
    private static Path goldenFiles(Path in) throws Exception {
        Path golden = Path.of(FileMetadataTest.class.getResource("/golden/file-metadata").toURI());
        Files.createDirectories(in);
        JsonNode spec = JSON.readTree(golden.resolve("case.json").toFile());
        for (Iterator<Map.Entry<String, JsonNode>> it = spec.get("mtimes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Path f = Files.copy(golden.resolve("in").resolve(e.getKey()), in.resolve(e.getKey()));
            Files.setLastModifiedTime(f, FileTime.from(Instant.parse(e.getValue().asText())));
        }
        return golden;
    }

    /** A row's facts in one form for both sides: the folder as {@code <in>}, the modification time as an instant. */
    private static String comparable(JsonNode row, String folder) {
        String m = row.get("_metadata").get("file_modification_time").asText();
        return (row.get("id") + " " + row.get("user") + " " + row.get("input_file").asText() + " " + row.get("_metadata").get("file_path").asText()
                + " " + row.get("_metadata").get("file_name").asText() + " " + row.get("_metadata").get("file_size").asLong()
                + " " + row.get("_metadata").get("file_block_start").asLong() + " " + row.get("_metadata").get("file_block_length").asLong()
                + " " + Instant.parse(m.replaceFirst("([+-]\\d\\d:\\d\\d|Z)$", "Z"))).replace(folder, "<in>");
    }

    @Test
    void eachRowReadsItsFilesFactsAsSparkGivesThem() throws Exception {
        Path in = tmp.resolve("facts/in");
        Path golden = goldenFiles(in);
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("file-metadata"), in, SCHEMA)
                .transform(sql("SELECT *, input_file_name() AS input_file, _metadata FROM source")).build();
        assertThat(config.outputSchema().toDdl()).startsWith("id INT, user STRING, input_file STRING NOT NULL, _metadata STRUCT<");
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).isPresent();
        }
        String folder = in.toUri().getRawPath().replaceAll("/$", "");
        List<String> ours = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : IngestKit.readCommitted(KAFKA.broker(), config.eventsTopic())) {
            JsonNode row = JSON.readTree(r.value());
            if (row.has("id")) {
                ours.add(comparable(row, folder));
            }
        }
        ours.sort(Comparator.naturalOrder());
        List<String> spark = new ArrayList<>();
        for (String line : Files.readAllLines(golden.resolve("spark.jsonl"))) {
            spark.add(comparable(JSON.readTree(line), "<in>"));
        }
        assertThat(ours).hasSize(3).containsExactlyElementsOf(spark);
    }

    @Test
    void starLeavesTheHiddenColumnOutAndSelectAndWhereReadIt() throws Exception {
        Path in = tmp.resolve("select/in");
        goldenFiles(in);
        IngestConfig star = IngestConfig.builder("p", in, SCHEMA).transform(sql("SELECT *, _metadata.file_name AS f FROM source")).build();
        assertThat(star.outputSchema().toDdl()).isEqualTo("id INT, user STRING, f STRING");
        IngestConfig block = IngestConfig.builder(IngestKit.uniquePipeline("file-metadata-block"), in, SCHEMA)
                .transform("_metadata.file_size > 30 AND input_file_name() LIKE 'file:///%'", List.of("*", "_metadata.file_name")).build();
        assertThat(block.outputSchema().toDdl()).isEqualTo("id INT, user STRING, file_name STRING");
        IngestConfig whereOnly = IngestConfig.builder("p", in, SCHEMA).transform("_metadata.file_name = 'a.json'", null).build();
        assertThat(whereOnly.outputSchema().toDdl()).isEqualTo("id INT, user STRING");
        IngestKit.createTopics(KAFKA.broker(), block, 1);
        try (FileIngest ingest = new FileIngest(block, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).isPresent();
        }
        List<String> rows = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : IngestKit.readCommitted(KAFKA.broker(), block.eventsTopic())) {
            JsonNode row = JSON.readTree(r.value());
            if (row.has("id")) {
                rows.add(row.toString());
            }
        }
        assertThat(rows).containsExactlyInAnyOrder("{\"id\":1,\"user\":\"ann\",\"file_name\":\"a.json\"}",
                "{\"id\":2,\"user\":\"bob\",\"file_name\":\"a.json\"}"); // b c.json is 21 bytes
    }

    @Test
    void aLateralViewsRowsReadTheirFilesFactsAndStarStillLeavesThemOut() {
        Schema tagged = Schema.parse("id INT, tags ARRAY<STRING>");
        IngestConfig c = IngestConfig.builder("p", Path.of("in"), tagged)
                .transform(sql("SELECT *, _metadata.file_size AS size FROM source LATERAL VIEW explode(tags) t AS tag")).build();
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, tags ARRAY<STRING>, tag STRING, size BIGINT");
        Object[] facts = io.tributary.expressions.FileMetadata.facts("file:///in/a.json", 44, 1_000);
        int hidden = c.transform().hiddenColumns();
        assertThat(hidden).isEqualTo(2);
        List<String> rows = c.transform().rows(io.tributary.expressions.FileMetadata.widen(new Object[] {1, List.of("x", "y")}, facts, hidden))
                .stream().map(java.util.Arrays::toString).toList();
        assertThat(rows).containsExactly("[1, [x, y], x, 44]", "[1, [x, y], y, 44]");
    }

    @Test
    void aSourceOfNoFilesRefusesThemNamingTheSource() {
        assertThatThrownBy(() -> RowTransforms.compile(sql("SELECT *, _metadata.file_name AS f FROM source"), SCHEMA, null))
                .hasMessageContaining("_metadata tells of the file a row was read from, and only a file source (source.path) reads files");
        assertThatThrownBy(() -> RowTransforms.compile(sql("SELECT input_file_name() AS f FROM source"), SCHEMA, null))
                .hasMessageContaining("input_file_name() tells of the file");
    }

    @Test
    void aColumnOfTheSchemaNamedMetadataIsTheColumn() {
        Schema own = Schema.parse("id INT, _metadata STRING");
        IngestConfig c = IngestConfig.builder("p", Path.of("in"), own).transform(null, List.of("*", "_metadata AS m")).build();
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, _metadata STRING, m STRING");
        assertThat(c.transform().hiddenColumns()).isEqualTo(1); // input_file_name() only
    }
}
