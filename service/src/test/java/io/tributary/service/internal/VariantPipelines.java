package io.tributary.service.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.VariantValue;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the service's VARIANT pipeline tests share: Spark's recordings under {@code golden/variant/}, a spec written into
 * the test's folder and run to its end, a broker of each test's own with its topic and values, and a Delta table read back
 * as the tab-separated lines compat/spark prints (NULL for a null, VARIANTs through {@code to_json} and
 * {@code schema_of_variant}, their bytes in hex).
 */
final class VariantPipelines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private VariantPipelines() {
    }

    /** The lines of {@code golden/variant/NAME}. */
    static List<String> golden(String name) throws IOException {
        return new String(goldenBytes(name), StandardCharsets.UTF_8).lines().toList();
    }

    /** The bytes of {@code golden/variant/NAME}. */
    static byte[] goldenBytes(String name) throws IOException {
        try (InputStream in = VariantPipelines.class.getResourceAsStream("/golden/variant/" + name)) {
            if (in == null) {
                throw new IOException("no golden/variant/" + name + " on the class path");
            }
            return in.readAllBytes();
        }
    }

    /** The spec {@code yaml}, written as {@code pipeline.yaml} in {@code dir} and loaded from there. */
    static PipelineSpec spec(Path dir, String yaml) throws IOException {
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, yaml);
        return PipelineSpec.load(specFile, Map.of(), Map.of());
    }

    /** Runs the pipeline as its trigger says (availableNow: to the end of its input) and closes it. */
    static void run(PipelineSpec spec) throws Exception {
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    /** {@link #run} and the pipeline's dead letters, read before it closes (and with it the broker it started). */
    static List<JsonNode> runReadingDeadLetters(PipelineSpec spec) throws Exception {
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            return TopicTail.json(pipeline.clientProps(), Topics.deadLetter(spec.name()));
        }
    }

    /**
     * An embedded broker of each test's own, in a temporary folder removed after the test, with the one-partition topic
     * {@code topic}: {@code @RegisterExtension final VariantPipelines.TopicBroker kafka = new VariantPipelines.TopicBroker("events");}.
     */
    static final class TopicBroker implements BeforeEachCallback, AfterEachCallback {
        private final String topic;
        private Path dir;
        private EmbeddedBroker broker;

        TopicBroker(String topic) {
            this.topic = topic;
        }

        @Override
        public void beforeEach(ExtensionContext context) throws IOException {
            dir = Files.createTempDirectory("tributary-variant-broker");
            broker = EmbeddedBroker.start(dir.resolve("kafka"));
            TopicAdmin.ensure(client(), 1, Optional.empty(), topic);
        }

        @Override
        public void afterEach(ExtensionContext context) throws IOException {
            if (broker != null) {
                broker.close();
            }
            deleteTree(dir);
        }

        String bootstrapServers() {
            return broker.bootstrapServers();
        }

        /** Client settings that reach the broker. */
        Map<String, Object> client() {
            return Map.of("bootstrap.servers", broker.bootstrapServers());
        }

        /** Each of {@code values} (UTF-8, no key) sent to partition 0 of the topic, in order, each acknowledged. */
        void produce(List<String> values) throws Exception {
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(client(), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (String v : values) {
                    p.send(new ProducerRecord<>(topic, 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
                }
            }
        }
    }

    /** The DDL of the Delta table at {@code table}. */
    static String tableDdl(Path table) {
        return DeltaTables.schema(table.toString()).orElseThrow().toDdl();
    }

    /** The table's rows (of schema {@code ddl}) in the order of their first column, an INT, as tab-separated {@code query}. */
    static List<String> tableRows(Path table, String ddl, List<String> query) {
        Transform t = Transform.compile(Schema.parseWithVariant(ddl), null, query);
        return DeltaTables.readRows(table.toString()).stream().sorted(Comparator.comparing(r -> (Integer) r[0]))
                .map(r -> tsv(t.apply(r))).toList();
    }

    /**
     * The rows of a table of one column {@code v VARIANT}, sorted, as compat/spark's {@code SparkSingleVariantColumn} prints
     * them: {@code to_json(v)} (tabs and line ends escaped), {@code schema_of_variant(v)}, the value's and the metadata's
     * bytes in hex.
     */
    static List<String> variantBytes(Path table) {
        Transform query = Transform.compile(Schema.parseWithVariant("v VARIANT"), null, List.of("to_json(v)", "schema_of_variant(v)"));
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table.toString())) {
            Object[] q = query.apply(r);
            VariantValue v = (VariantValue) r[0];
            rows.add(String.join("\t", q[0] == null ? "NULL" : String.valueOf(q[0]).replace("\t", "\\t").replace("\n", "\\n"),
                    q[1] == null ? "NULL" : String.valueOf(q[1]), v == null ? "NULL" : HexFormat.of().formatHex(v.value()),
                    v == null ? "NULL" : HexFormat.of().formatHex(v.metadata())));
        }
        rows.sort(null);
        return rows;
    }

    /** The actions of kind {@code kind} ({@code add}, {@code metaData}...) in the table's JSON commits, oldest first. */
    static List<JsonNode> logActions(Path table, String kind) throws IOException {
        List<JsonNode> actions = new ArrayList<>();
        try (var files = Files.list(table.resolve("_delta_log"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    JsonNode action = JSON.readTree(line);
                    if (action.has(kind)) {
                        actions.add(action.get(kind));
                    }
                }
            }
        }
        return actions;
    }

    /** Spark's rows that its PERMISSIVE mode read whole: those whose last column, {@code _corrupt_record}, is NULL. */
    static List<String> readWhole(List<String> spark) {
        return spark.stream().filter(l -> l.endsWith("\tNULL")).toList();
    }

    /** The texts Spark's PERMISSIVE mode kept in {@code _corrupt_record}, the last column of its other rows. */
    static List<String> corruptRecords(List<String> spark) {
        return spark.stream().filter(l -> !l.endsWith("\tNULL")).map(l -> l.substring(l.lastIndexOf('\t') + 1)).toList();
    }

    /** The error class of a line compat/spark printed for a failed query: {@code ERROR CLASS: message}. */
    static String sparkErrorClass(String line) {
        return line.substring("ERROR ".length(), line.indexOf(':'));
    }

    /**
     * With {@code -Dtributary.variant.keep=DIR}, a copy of the table in {@code DIR/NAME} (replacing one there), for compat/spark
     * to read with Spark.
     */
    static void keepTable(Path table, String name) throws IOException {
        String keep = System.getProperty("tributary.variant.keep");
        if (keep != null) {
            Path target = Path.of(keep).resolve(name);
            deleteTree(target);
            Folders.copy(table, target);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (dir != null && Files.exists(dir)) {
            try (var all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static String tsv(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(v == null ? "NULL" : String.valueOf(v));
        }
        return String.join("\t", cells);
    }
}
