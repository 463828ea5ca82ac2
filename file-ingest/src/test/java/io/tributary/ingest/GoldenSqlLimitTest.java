package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.expressions.SparkValues;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code sql:} query's LIMIT over several runs ({@code golden/sql-limit/}, Spark 4.2's tables recorded by compat/spark's
 * {@code SparkSqlLimit}): each run's files are ingested by a new ingest until no batch is left (availableNow), the rows
 * published so far are Spark's table after that run, and each batch's numInputRows Spark's; a query Spark refuses is refused
 * when the pipeline is built.
 */
@Tag("integration")
@Timeout(300)
class GoldenSqlLimitTest {
    /**
     * Cases where Tributary keeps other rows than Spark, as many of them (docs/transform.md, "LIMIT"): within one batch Spark
     * reads the largest file first (its file partitions are packed by size), a join's rows come out in its plan's order, and a
     * UNION ALL gives the first query's rows of the batch before the second's; Tributary keeps the first rows in the order the
     * files are read (by modification time), each row's rows of every query together.
     */
    static final Set<String> DIFFERENT = Set.of("one-batch-two-files", "join", "union-all");
    /**
     * Cases whose batches count other input rows than Spark's (docs/transform.md, "LIMIT"): with a join Tributary's numInputRows
     * counts the joined rows, Spark's the rows its scan read (here all of the batch's, the stream being the side its join builds);
     * a WHERE Spark's JSON reader cannot apply ({@code amt * 2 > 0}) drops rows after Spark's scan counted them, before
     * Tributary's count.
     */
    static final Set<String> INPUT_ROWS_DIFFER = Set.of("join", "where-expression");
    /** Cases Spark runs that are refused here, naming the construct (docs/transform.md, "LIMIT"): a LIMIT with GROUP BY, or in a view. */
    static final Set<String> NOT_SUPPORTED = Set.of("group-by", "limit-in-view");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    static Stream<String> cases() throws IOException, URISyntaxException {
        try (Stream<Path> dirs = Files.list(root())) {
            return dirs.filter(d -> Files.exists(d.resolve("case.json"))).map(d -> d.getFileName().toString()).sorted().toList().stream();
        }
    }

    private static Path root() throws URISyntaxException {
        return Path.of(GoldenSqlLimitTest.class.getClassLoader().getResource("golden/sql-limit").toURI());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachRunLeavesSparksTable(String name) throws Exception {
        Path dir = root().resolve(name);
        JsonNode spec = new ObjectMapper().readTree(dir.resolve("case.json").toFile());
        Schema schema = Schema.parse(spec.get("schema").asText());
        Path in = tmp.resolve(name + "/in");
        Files.createDirectories(in);
        List<String> first = Files.readAllLines(dir.resolve("after-run1.txt"));
        String failed = first.stream().filter(l -> l.startsWith("failed ")).findFirst().orElse(null);
        if (failed != null || NOT_SUPPORTED.contains(name)) { // refused when the pipeline is built
            assertThatThrownBy(() -> config(spec, schema, in, dir)).as(name).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("is not supported");
            return;
        }
        IngestConfig config = config(spec, schema, in, dir);
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        long mtime = 1_000_000;
        int run = 0;
        boolean differs = false;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                IngestKit.write(in, f.asText(), Files.readString(dir.resolve(f.asText())), mtime += 1000);
            }
            List<String> batches = new ArrayList<>();
            try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
                for (var p = ingest.runBatch(); p.isPresent(); p = ingest.runBatch()) { // availableNow: every batch the files give
                    batches.add(p.get().batchId() + ":" + p.get().numInputRows());
                }
            }
            List<String> spark = Files.readAllLines(dir.resolve("after-run" + run + ".txt"));
            if (!INPUT_ROWS_DIFFER.contains(name)) {
                assertThat(batches).as(name + " run " + run + ": each batch's numInputRows").isEqualTo(sparkBatches(spark));
            }
            List<String> theirs = table(spark);
            List<String> ours = published(config);
            if (DIFFERENT.contains(name)) {
                assertThat(ours).as(name + " run " + run).hasSameSizeAs(theirs);
                differs |= !ours.equals(theirs);
            } else {
                assertThat(ours).as(name + " run " + run).isEqualTo(theirs);
            }
        }
        assertThat(differs).as(name + ": listed as keeping other rows than Spark").isEqualTo(DIFFERENT.contains(name));
    }

    /**
     * The process dies in run 2 after the batch's rows were read and sent, before its transaction committed: the restarted ingest
     * publishes the rows LIMIT lets through once, counted from the last committed batch, and run 3 adds none (Spark's tables).
     */
    @org.junit.jupiter.api.Test
    void aCrashBeforeTheCommitNeitherLosesNorDoublesTheRowsLimitKeeps() throws Exception {
        ThreeRuns r = ThreeRuns.afterRun1("crash");
        Path dir = r.dir();
        JsonNode spec = r.spec();
        Schema schema = r.schema();
        Path in = r.in();
        IngestConfig config = r.config();

        IngestKit.write(in, "b.json", Files.readString(dir.resolve("b.json")) + "crash here\n", 2_000);
        long before = IngestKit.endOffsets(KAFKA.broker(), config.eventsTopic());
        // at the bad record after b.json's rows, once the rows LIMIT let through (a record each) are on the broker, uncommitted
        BadRecordPolicy dieMidBatch = CrashMidBatchTest.crashAtABadRecord(
                () -> IngestKit.awaitRecordsPast(KAFKA.broker(), config.eventsTopic(), before));
        FileIngest dying = new FileIngest(builder(spec, schema, in, dir, config.pipeline()).onBadRecord(dieMidBatch).rowsPerRecord(1)
                .build(), IngestKit.props(KAFKA.broker()));
        try {
            assertThatThrownBy(dying::runBatch).isInstanceOf(CrashMidBatchTest.Crash.class);
            IngestConfig restarted = builder(spec, schema, in, dir, config.pipeline()).onBadRecord(BadRecordPolicy.DROP)
                    .build();
            try (FileIngest ingest = new FileIngest(restarted, IngestKit.props(KAFKA.broker()))) {
                while (ingest.runBatch().isPresent()) {
                    // the files left
                }
            }
        } finally {
            dying.close();
        }
        assertThat(published(config)).isEqualTo(table(Files.readAllLines(dir.resolve("after-run2.txt")))).hasSize(4);

        IngestKit.write(in, "c.json", Files.readString(dir.resolve("c.json")), 3_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            while (ingest.runBatch().isPresent()) {
                // availableNow
            }
        }
        assertThat(published(config)).isEqualTo(table(Files.readAllLines(dir.resolve("after-run3.txt")))).hasSize(4);
    }

    /**
     * An ingest log written before the count of rows published was kept (its state record without {@code rowsPublished}): the
     * rows LIMIT still lets through are unknown, so the next batch is refused with one line naming the ingest log, and nothing
     * more is published.
     */
    @org.junit.jupiter.api.Test
    void anIngestLogWithoutTheCountIsRefused() throws Exception {
        ThreeRuns r = ThreeRuns.afterRun1("older-log");
        IngestConfig config = r.config();
        List<String> before = published(config);
        try (KafkaProducer<byte[], byte[]> older = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                KAFKA.broker().bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            older.send(new ProducerRecord<>(config.ingestLogTopic(), "__state__".getBytes(StandardCharsets.UTF_8),
                    "{\"nextBatchId\":1,\"maxEventTimeMs\":null,\"watermarkMs\":0}".getBytes(StandardCharsets.UTF_8))).get();
        }
        IngestKit.write(r.in(), "b.json", Files.readString(r.dir().resolve("b.json")), 2_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessage("sql: LIMIT 4: the ingest log " + config.ingestLogTopic() + " of pipeline " + config.pipeline()
                            + " holds no count of the rows published so far (written before the count was kept), so the rows LIMIT"
                            + " still lets through are unknown; run the query as a new pipeline, or remove LIMIT");
        }
        assertThat(published(config)).as("b.json's rows not published").isEqualTo(before).hasSize(2);
    }

    /** The case {@code three-runs} in folder {@code name}: its first run ingested, Spark's table after it published. */
    private record ThreeRuns(Path dir, JsonNode spec, Schema schema, Path in, IngestConfig config) {
        static ThreeRuns afterRun1(String name) throws Exception {
            Path dir = root().resolve("three-runs");
            JsonNode spec = new ObjectMapper().readTree(dir.resolve("case.json").toFile());
            Schema schema = Schema.parse(spec.get("schema").asText());
            Path in = tmp.resolve(name + "/in");
            IngestConfig config = GoldenSqlLimitTest.config(spec, schema, in, dir);
            IngestKit.createTopics(KAFKA.broker(), config, 1);
            IngestKit.write(in, "a.json", Files.readString(dir.resolve("a.json")), 1_000);
            try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
                assertThat(ingest.runBatch()).isPresent();
            }
            assertThat(published(config)).isEqualTo(table(Files.readAllLines(dir.resolve("after-run1.txt"))));
            return new ThreeRuns(dir, spec, schema, in, config);
        }
    }

    private static IngestConfig config(JsonNode spec, Schema schema, Path in, Path dir) throws IOException {
        return builder(spec, schema, in, dir, IngestKit.uniquePipeline("limit")).build();
    }

    private static IngestConfigBuilder builder(JsonNode spec, Schema schema, Path in, Path dir, String pipeline) throws IOException {
        Values sql = Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s,
                Map.of("sql", spec.get("query").asText().replace("delta.`T`", "delta.`users`"))::get, (s, t, e) -> e);
        IngestConfigBuilder b = IngestConfig.builder(pipeline, in, schema).transform(sql);
        if (spec.has("maxFilesPerTrigger")) {
            b.maxFilesPerTrigger(spec.get("maxFilesPerTrigger").asInt());
        }
        if (Files.exists(dir.resolve("table.jsonl"))) {
            JoinSpecsTest.MemoryTable users = new JoinSpecsTest.MemoryTable();
            users.schema = Schema.parse(spec.get("tableSchema").asText());
            RowJson json = new RowJson(users.schema);
            users.rows = new ArrayList<>(Files.readAllLines(dir.resolve("table.jsonl")).stream().filter(l -> !l.isBlank()).map(json::parse).toList());
            b.staticTables(location -> users);
        }
        return b;
    }

    /** Spark's batches of a run, each {@code id:numInputRows} (its progress, without the watermark). */
    private static List<String> sparkBatches(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("batches ")).flatMap(l -> Stream.of(l.substring(8).split(",")))
                .filter(b -> !b.isEmpty()).map(b -> b.replaceAll("@.*", "")).toList();
    }

    /** Spark's table after a run: its rows, without the comment and the batches line. */
    private static List<String> table(List<String> lines) {
        return lines.stream().filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.startsWith("failed ")).toList();
    }

    /** The rows of the events topic, each as SparkSqlLimit writes a table's row ({@code |} between values), sorted. */
    private static List<String> published(IngestConfig config) {
        RowJson json = new RowJson(config.outputSchema());
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : IngestKit.readCommitted(KAFKA.broker(), config.eventsTopic())) {
            if (r.headers().lastHeader(io.tributary.schema.Topics.MARKER_HEADER) != null) {
                continue;
            }
            Object[] row = json.parse(IngestKit.text(r.value()));
            List<String> v = new ArrayList<>();
            for (int i = 0; i < row.length; i++) {
                v.add(SparkValues.canonical(row[i], config.outputSchema().field(i).type()));
            }
            out.add(String.join("|", v));
        }
        out.sort(null);
        return out;
    }
}
