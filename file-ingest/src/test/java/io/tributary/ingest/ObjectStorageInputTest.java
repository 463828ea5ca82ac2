package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.ingest.internal.BatchPlanner;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.IngestState;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.storage.S3ServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The file source on a real S3 server (S3Proxy): new objects are new data, exactly once; cleanSource on the server. */
@Tag("integration")
@Timeout(300)
class ObjectStorageInputTest {
    static final Schema SCHEMA = Schema.parse("id INT");

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private static IngestConfig config(String base, String in, CleanSource clean) {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline(base), in, SCHEMA).storage(S3.storage()).cleanSource(clean).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        return config;
    }

    private static List<String> values(IngestConfig config) {
        return readCommitted(KAFKA.broker(), config.eventsTopic()).stream().map(r -> text(r.value()).replace(" ", "")).toList();
    }

    private static List<String> names(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theSchemaIsInferredFromObjectsOnTheServer() throws Exception {
        Path bucket = S3.createBucket("inferred");
        write(bucket.resolve("json"), "a.json", "{\"id\": 1, \"amt\": 2.5}\n{\"id\": 2, \"tags\": [\"x\"]}\n", 1_000);
        IngestConfig json = IngestConfig.builder("inferred-json", "s3a://inferred/json/", FileFormat.textSchema()).storage(S3.storage()).build();
        assertThat(SchemaInference.infer(json, null).toDdl()).isEqualTo("amt DOUBLE, id BIGINT, tags ARRAY<STRING>");

        Files.createDirectories(bucket.resolve("parquet"));
        Files.copy(Path.of("..", "golden", "formats", "parquet-spark", "in", "part-00.parquet"), bucket.resolve("parquet/part-00.parquet"));
        IngestConfig parquet = IngestConfig.builder("inferred-pq", "s3a://inferred/parquet/", FileFormat.textSchema()).storage(S3.storage())
                .format("parquet").build();
        assertThat(SchemaInference.infer(parquet, "id BIGINT").toDdl()).isEqualTo("id BIGINT, name STRING, amt DOUBLE, price DECIMAL(10,2), "
                + "ts TIMESTAMP, d DATE, tags ARRAY<STRING>, attrs MAP<STRING, INT>, s STRUCT<a: INT, b: STRING>, ntz TIMESTAMP_NTZ");
    }

    @Test
    void threeRunsPickUpOnlyNewObjects() throws Exception {
        Path bucket = S3.createBucket("landing");
        write(bucket.resolve("orders"), "part-0001.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        IngestConfig config = config("s3-three-runs", "s3a://landing/orders/", CleanSource.OFF);

        try (FileIngest run1 = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = run1.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(2);
            assertThat(p.sources().get(0).description()).isEqualTo("FileSource[s3a://landing/orders/]");
        }
        try (FileIngest run2 = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(run2.runBatch()).isEmpty();
        }
        write(bucket.resolve("orders"), "part-0002.json", "{\"id\": 3}\n", 2_000);
        try (FileIngest run3 = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = run3.runBatch().orElseThrow();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.numInputRows()).isEqualTo(1);
        }
        assertThat(values(config)).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");

        // replaced with other content of the same size: reported as changed, never read again
        write(bucket.resolve("orders"), "part-0002.json", "{\"id\": 4}\n", 3_000);
        try (FileIngest run4 = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(run4.runBatch()).isEmpty();
            assertThat(run4.changedFiles()).singleElement().satisfies(c -> {
                assertThat(c.path()).isEqualTo("part-0002.json");
                assertThat(c.reason()).contains("content changed");
            });
        }
        assertThat(values(config)).hasSize(3);
    }

    @Test
    void objectsAppearWholeAndAreTakenAtFirstSightWhateverFileSettleTimeSays() throws Exception {
        Path bucket = S3.createBucket("landing-settle");
        write(bucket.resolve("in"), "a.json", "{\"id\": 1}\n", System.currentTimeMillis());
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("s3-settle"), "s3a://landing-settle/in/", SCHEMA)
                .storage(S3.storage()).fileSettleTime(java.time.Duration.ofHours(1)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        try (FileIngest ingest = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).boundedRun(true).build()) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesHeldBackSettling", 0L);
        }
    }

    @Test
    void archiveCopiesAndDeletesOnTheServerOnlyAfterTheCommit() throws Exception {
        Path bucket = S3.createBucket("landing-archive");
        write(bucket.resolve("in"), "a.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        write(bucket.resolve("in"), "b.json", "{\"id\": 3}\n", 2_000);
        IngestConfig config = config("s3-archive", "s3a://landing-archive/in",
                CleanSource.forLocation("archive", "s3a://landing-archive/done/"));

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(3);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesArchived", 2L);
        }
        assertThat(names(bucket.resolve("in"))).isEmpty();
        assertThat(names(bucket.resolve("done"))).containsExactly("a.json", "b.json");
        assertThat(Files.readString(bucket.resolve("done/a.json"))).isEqualTo("{\"id\": 1}\n{\"id\": 2}\n");
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker())).filesCleaned()).isEqualTo(2);

        IngestConfig deleting = config("s3-delete", "s3a://landing-archive/in2/", CleanSource.DELETE);
        write(bucket.resolve("in2"), "c.json", "{\"id\": 4}\n", 1_000);
        try (FileIngest ingest = new FileIngest(deleting, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
        }
        assertThat(names(bucket.resolve("in2"))).isEmpty();
        assertThat(values(deleting)).containsExactly("{\"id\":4}");
    }

    @Test
    void anArchiveInsideTheInputOrOnAnotherFileSystemIsRefused() {
        assertThatThrownBy(() -> IngestConfig.builder("p", "s3a://b/in/", SCHEMA)
                .cleanSource(CleanSource.forLocation("archive", "s3a://b/in/done")).build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("is inside the input folder s3a://b/in");
        assertThatThrownBy(() -> IngestConfig.builder("p", "s3a://b/in/", SCHEMA)
                .cleanSource(CleanSource.forLocation("archive", "/tmp/archive")).build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("is not on the file system of the input folder s3a://b/in/");
    }

    @Test
    void aMissingBucketStopsTheFirstBatchWithOneLine() {
        IngestConfig config = config("s3-no-bucket", "s3a://no-such-bucket/in/", CleanSource.OFF);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessage("input folder s3a://no-such-bucket/in: bucket 'no-such-bucket' does not exist (NoSuchBucket);"
                            + " create it or fix the path");
        }
    }

    /**
     * Timed on the in-memory S3Proxy store: its folder-backed store reads every object's file again
     * for each page of a listing (20 s for 10,000 objects here, all of it in the server).
     */
    @Test
    void tenThousandObjectsAreListedAndPlannedPageByPage() throws Exception {
        S3ServerExtension memory = new S3ServerExtension(true);
        memory.start();
        try {
            memory.createBucket("many-objects");
            io.tributary.storage.ObjectStore store = io.tributary.storage.ObjectStore.of(memory.storage());
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
            List<java.util.concurrent.Future<?>> puts = new java.util.ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                String key = String.format("s3a://many-objects/in/f-%05d.json", i);
                byte[] body = ("{\"id\": " + i + "}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                puts.add(pool.submit(() -> {
                    store.put(io.tributary.storage.ObjectLocation.parse(key), body);
                    return null;
                }));
            }
            for (var f : puts) {
                f.get();
            }
            pool.shutdown();
            IngestConfig config = IngestConfig.builder("many", "s3a://many-objects/in/", SCHEMA).storage(memory.storage())
                    .maxFilesPerTrigger(1_000).build();
            BatchPlanner planner = new BatchPlanner(config, FileDiscovery.of(config));
            planner.plan(new IngestState(), System.currentTimeMillis()); // the first listing also checks the bucket
            java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
            long t0 = System.nanoTime();
            long c0 = cpu.getCurrentThreadCpuTime();
            BatchPlanner.Plan plan = planner.plan(new IngestState(), System.currentTimeMillis());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            long cpuMs = (cpu.getCurrentThreadCpuTime() - c0) / 1_000_000;
            // the server runs in this JVM on threads of its own: the planning thread's CPU time is the client's share
            System.out.println("list and plan 10,000 objects on S3Proxy (in memory): " + ms + " ms wall, " + cpuMs
                    + " ms CPU of the planning thread (requests, XML, planning)");
            // the oldest 1,000 by modification time, then name, as the server lists them (concurrent puts
            // span more than one of S3's one-second modification times, in no particular order of names)
            List<String> oldest = new java.util.ArrayList<>();
            store.list(io.tributary.storage.ObjectLocation.parse("s3a://many-objects/in/"), false, null).forEachRemaining(o -> oldest.add(
                    String.format("%013d %s", o.mtimeMs(), o.name())));
            assertThat(oldest).hasSize(10_000);
            List<String> expected = oldest.stream().sorted().limit(1_000).map(s -> s.substring(14)).toList();
            assertThat(plan.files()).extracting(f -> f.relPath()).containsExactlyElementsOf(expected);
            assertThat(plan.leftForLater()).isEqualTo(9_000);
        } finally {
            memory.stop();
        }
    }
}
