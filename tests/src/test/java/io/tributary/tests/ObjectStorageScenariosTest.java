package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.S3ServerExtension;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's scenarios with the input files and the tables on a real S3 server (S3Proxy, in this
 * JVM): the three runs, a windowed aggregation, an upsert, a Delta source chain, a crash between
 * the Parquet upload and the commit, and the bad settings that stop a run at start.
 */
@Tag("integration")
@Timeout(600)
class ObjectStorageScenariosTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @TempDir
    Path dir;

    static String storageYaml(Map<String, String> settings) {
        StringBuilder b = new StringBuilder("storage:\n");
        settings.forEach((k, v) -> b.append("  ").append(k).append(": \"").append(v).append("\"\n"));
        return b.toString();
    }

    /** The quickstart's spec with its input and table in bucket {@code bucket}. */
    static String spec(String name, String bucket) {
        return QuickstartScenarios.SPEC.replace("name: quickstart", "name: " + name)
                .replace("    path: in/", "    path: s3a://" + bucket + "/landing/")
                .replace("    path: out/", "    path: s3a://" + bucket + "/bronze/orders/")
                + storageYaml(S3.settings());
    }

    static void drop(Path bucket, String name, String... lines) throws IOException {
        Path in = Files.createDirectories(bucket.resolve("landing"));
        Path tmp = Files.createTempFile(bucket.getParent(), "upload", ".tmp");
        Files.writeString(tmp, String.join("\n", lines) + "\n");
        Files.move(tmp, in.resolve(name));
    }

    static List<Object> ids(String table) {
        return DeltaTables.readRows(table, S3.storage()).stream().map(r -> r[0]).sorted().collect(Collectors.toList());
    }

    @Test
    void threeRunsPickUpOnlyNewObjects() throws Exception {
        Path bucket = S3.createBucket("quickstart");
        String table = "s3a://quickstart/bronze/orders/";
        Workspace ws = new Workspace(dir, spec("quickstart", "quickstart"));
        drop(bucket, "part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");

        Workspace.Result run1 = ws.tributary("run").assertOk();
        assertThat(QuickstartScenarios.single(run1.progress("quickstart/sink")).get("numInputRows").asLong()).isEqualTo(2);
        assertThat(QuickstartScenarios.single(run1.progress("quickstart/ingest")).at("/sources/0/description").asText())
                .isEqualTo("FileSource[s3a://quickstart/landing/]");
        Workspace.Result run2 = ws.tributary("run").assertOk();
        assertThat(run2.summary().get("numInputRows").asLong()).isZero();
        drop(bucket, "part-0002.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        Workspace.Result run3 = ws.tributary("run").assertOk();
        JsonNode sink3 = QuickstartScenarios.single(run3.progress("quickstart/sink"));
        assertThat(sink3.get("batchId").asLong()).isEqualTo(1);
        assertThat(sink3.get("numInputRows").asLong()).isEqualTo(1);

        assertThat(ids(table)).containsExactly(1, 2, 3);
        assertThat(DeltaTables.latestVersion(table, S3.storage())).isEqualTo(1);
        assertThat(bucket.resolve("bronze/orders/_delta_log/00000000000000000001.json")).exists();
        String checkpoint = ws.tributary("checkpoint show").assertOk().out();
        assertThat(checkpoint).contains("batch 1  part-0002.json  1 rows").contains("version 1  STREAMING UPDATE  batch 1  1 rows")
                .contains("storage.fs.s3a.secret.key = ******").doesNotContain(S3ServerExtension.SECRET_KEY);
        assertThat(run1.err() + run1.out() + run3.err() + run3.out()).doesNotContain(S3ServerExtension.SECRET_KEY);

        Workspace upkeep = new Workspace(dir.resolve("upkeep"), "");
        List<String> storageArgs = new ArrayList<>(List.of("describe", table));
        S3.settings().forEach((k, v) -> storageArgs.addAll(List.of("--storage", k + "=" + v)));
        assertThat(upkeep.tributaryRaw(storageArgs.toArray(String[]::new)).assertOk().out()).contains("files  2,");
    }

    @Test
    void aWindowedAggregationWritesItsClosedWindowsToS3() throws Exception {
        Path bucket = S3.createBucket("windows");
        String spec = SeedWindowsScenarioTest.SPEC.replace("    path: in/", "    path: s3a://windows/landing/")
                .replace("    path: agg/", "    path: s3a://windows/gold/revenue/") + storageYaml(S3.settings());
        Workspace ws = new Workspace(dir, spec);
        drop(bucket, "events-1.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 3, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        ws.tributary("run").assertOk();

        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows("s3a://windows/gold/revenue", S3.storage())) {
            Object[] w = (Object[]) r[0];
            rows.add(Timestamps.formatMicros((Long) w[0]) + "|" + r[1] + "|" + r[2]);
        }
        assertThat(rows).as("the 10:00 window closed (watermark 10:15); 10:20 waits for later events")
                .containsExactlyInAnyOrder("2026-01-01T10:00:00Z|a|5.0", "2026-01-01T10:00:00Z|b|7.0");
    }

    @Test
    void anUpsertMergesByKeyOnS3() throws Exception {
        Path bucket = S3.createBucket("upserts");
        String spec = spec("upserts", "upserts").replace("    path: s3a://upserts/bronze/orders/",
                "    path: s3a://upserts/silver/orders/\n    mode: upsert\n    keys: [id]");
        Workspace ws = new Workspace(dir, spec);
        drop(bucket, "batch-1.json", UpsertScenarioTest.SIX_ROWS);
        ws.tributary("run").assertOk();
        drop(bucket, "batch-2.json", "{\"id\": 2, \"user\": \"b\", \"amt\": 70.0, \"ts\": \"2026-01-01T11:00:00Z\"}");
        ws.tributary("run").assertOk();

        Map<Object, Object> amounts = DeltaTables.readRows("s3a://upserts/silver/orders", S3.storage()).stream()
                .collect(Collectors.toMap(r -> r[0], r -> r[2]));
        assertThat(amounts).containsExactlyInAnyOrderEntriesOf(Map.of(1, 5.0, 2, 70.0, 3, 2.0, 4, 3.0, 5, 4.0));
    }

    @Test
    void aDeltaSourceChainsBronzeToSilverOnS3() throws Exception {
        Path bucket = S3.createBucket("chain");
        Workspace bronze = new Workspace(dir.resolve("bronze"), spec("bronze", "chain"));
        Workspace silver = new Workspace(dir.resolve("silver"), """
                name: silver
                source:
                  delta:
                    path: s3a://chain/bronze/orders/
                sink:
                  delta:
                    path: s3a://chain/silver/orders/
                trigger: availableNow
                """ + storageYaml(S3.settings()));
        drop(bucket, "a.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        bronze.tributary("run").assertOk();
        assertThat(silver.tributary("run").assertOk().summary().get("numInputRows").asLong()).isEqualTo(2);
        drop(bucket, "b.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        bronze.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        assertThat(ids("s3a://chain/silver/orders")).containsExactly(1, 2, 3);
    }

    /** Killed after the Parquet upload, before the commit: nothing is visible, and the restart writes the batch once. */
    @Test
    void aCrashBetweenTheUploadAndTheCommitIsRedoneExactly() throws Exception {
        Path bucket = S3.createBucket("crash");
        String table = "s3a://crash/bronze/orders/";
        Workspace ws = new Workspace(dir, spec("crash", "crash"));
        drop(bucket, "part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");

        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, CrashPoint.SINK_BEFORE_COMMIT), "run", ws.spec.toString());
        assertThat(crashed.waitFor(240)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(parquet(bucket.resolve("bronze/orders"))).as("the batch's file was uploaded").isNotEmpty();
        assertThat(DeltaTables.readRows(table, S3.storage())).as("no commit names it: no visible rows").isEmpty();

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(240)).as("stderr: %s", restarted.err()).isZero();
        assertThat(ids(table)).containsExactly(1, 2);
        assertThat(DeltaTables.latestVersion(table, S3.storage())).isZero();
    }

    @Test
    void aMissingBucketWrongCredentialsOrNoServerStopTheRunAtStartWithOneLine() throws Exception {
        S3.createBucket("badinput");
        Workspace ws = new Workspace(dir, spec("bad", "badinput").replace("s3a://badinput/bronze/", "s3a://no-such-bucket/bronze/"));
        Workspace.Result noBucket = ws.tributary("run");
        assertThat(noBucket.exitCode()).isEqualTo(1);
        assertThat(noBucket.err().strip().lines().filter(l -> l.contains("no-such-bucket")).toList()).singleElement().asString()
                .contains("delta table s3a://no-such-bucket/bronze/orders: bucket 'no-such-bucket' does not exist (NoSuchBucket)");
        assertThat(dir.resolve(".tributary")).as("nothing started, nothing written").doesNotExist();

        Workspace.Result wrongSecret = ws.tributary("run", "--set", "storage.fs.s3a.secret.key=wrong-secret");
        assertThat(wrongSecret.exitCode()).isEqualTo(1);
        assertThat(wrongSecret.err()).contains("input folder s3a://badinput/landing: the secret key does not match the access key"
                + " (SignatureDoesNotMatch)").doesNotContain("wrong-secret");

        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Workspace.Result noServer = ws.tributary("run", "--set", "storage.fs.s3a.endpoint=http://127.0.0.1:" + closed);
        assertThat(noServer.exitCode()).isEqualTo(1);
        assertThat(noServer.err()).contains("input folder s3a://badinput/landing: no S3 server answers at http://127.0.0.1:" + closed);
    }

    static List<Path> parquet(Path table) throws IOException {
        if (!Files.exists(table)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(table)) {
            return s.filter(p -> p.toString().endsWith(".parquet")).toList();
        }
    }

    static Storage storage() {
        return S3.storage();
    }
}
