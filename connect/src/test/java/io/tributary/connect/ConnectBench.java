package io.tributary.connect;

import io.tributary.broker.BrokerExtension;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TableCommit;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows per second through file connector, topic and Delta connector on one worker, with 1, 2 and 3
 * tasks each: {@code ./mvnw -pl connect -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=ConnectBench -Dconnect.bench=1000000} (rows; 100 files, the bench's input shape;
 * the source connector packs 1000 rows per record as tributary run does, {@code
 * -Dconnect.bench.rowsPerRecord=1} gives a record per row; {@code -Dconnect.bench.tasks=1,2,3} the
 * task counts, in order, on one worker; {@code -Dconnect.bench.sinkSql=QUERY} the Delta connector's sql, e.g.
 * {@code "SELECT id, upper(user) AS user, amt * 2 AS amt2, date_trunc('HOUR', ts) AS hour FROM source WHERE amt >= 10"}, with
 * {@code -Dconnect.bench.sinkRows=N} the rows it keeps: 90% of the input with that WHERE).
 * Each run is timed from the two PUTs to the commit that makes the table hold every row.
 */
@Tag("integration")
@EnabledIfSystemProperty(named = "connect.bench", matches = "\\d+")
class ConnectBench {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    /** The worker's JVM as tributary's launcher runs the pipeline: a 1 GiB heap and the parallel collector. */
    static final List<String> WORKER_JVM = List.of("-Xmx1g", "-XX:+UseParallelGC");

    @TempDir
    Path dir;

    @Test
    void rowsPerSecondThroughBothConnectors() throws Exception {
        int rows = Integer.parseInt(System.getProperty("connect.bench"));
        int rowsPerRecord = Integer.getInteger("connect.bench.rowsPerRecord", 1000);
        String query = System.getProperty("connect.bench.sinkSql", "");
        String sinkSql = query.isBlank() ? "" : ", \"sql\": " + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(query);
        Path in = Files.createDirectories(dir.resolve("in"));
        writeInput(in, rows, 100);
        try (ConnectWorkers workers = new ConnectWorkers(dir.resolve("connect"), KAFKA.broker().bootstrapServers(),
                ConnectWorkers.pluginZip(), 1, WORKER_JVM)) {
            String[] taskCounts = System.getProperty("connect.bench.tasks", "1,2,3").split(",");
            for (int run = 0; run < taskCounts.length; run++) {
                int tasks = Integer.parseInt(taskCounts[run].trim());
                String topic = "bench" + run;
                Path table = dir.resolve("table" + run);
                try (Admin admin = Admin.create(KAFKA.client())) {
                    admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1), new NewTopic(topic + ".deadletter", 1, (short) 1))).all().get();
                }
                long expected = query.isBlank() ? rows : Long.getLong("connect.bench.sinkRows", rows); // the rows the query keeps
                long t0 = System.nanoTime();
                call(workers, topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in
                        + "\", \"schema\": \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\", \"topic\": \"" + topic
                        + "\", \"tasks.max\": \"" + tasks + "\", \"rowsPerRecord\": \"" + rowsPerRecord + "\"}");
                call(workers, topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic
                        + "\", \"delta.path\": \"" + table + "\", \"tasks.max\": \"" + tasks + "\"" + sinkSql + "}");
                try {
                    Awaitility.await().atMost(Duration.ofSeconds(600)).pollInterval(Duration.ofMillis(200)).pollDelay(Duration.ZERO)
                            .pollInSameThread().until(() -> addedRows(table) >= expected);
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError("the table did not reach " + rows + " rows in 600 s\n" + workers.logs(), e);
                }
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf("connect bench: %d rows, %d task(s) each, rowsPerRecord %d: %.1f s, %.0f rows/s, %d table versions%n",
                        rows, tasks, rowsPerRecord, s, rows / s, DeltaTables.latestVersion(table.toString()) + 1);
                if (addedRows(table) != expected) {
                    throw new AssertionError("the table holds " + addedRows(table) + " rows, not " + expected);
                }
                workers.call("DELETE", "/connectors/" + topic + "-files", null);
                workers.call("DELETE", "/connectors/" + topic + "-delta", null);
            }
        }
    }

    private static void call(ConnectWorkers workers, String name, String body) throws IOException, InterruptedException {
        var r = workers.call("PUT", "/connectors/" + name + "/config", body);
        if (r.statusCode() >= 300) {
            throw new AssertionError("PUT " + name + ": " + r.body());
        }
    }

    private static long addedRows(Path table) {
        return DeltaTables.history(table.toString()).stream().mapToLong(TableCommit::addedRows).sum();
    }

    /** The bench's input: unique ids, 10,000 users, one timestamp per second. */
    private static void writeInput(Path in, int rows, int files) throws IOException {
        int perFile = rows / files;
        long ts = 1_767_225_600L; // 2026-01-01T00:00:00Z
        for (int f = 0; f < files; f++) {
            try (BufferedWriter w = Files.newBufferedWriter(in.resolve(String.format("part-%04d.json", f)))) {
                for (int r = 0; r < perFile; r++) {
                    int id = f * perFile + r;
                    w.write("{\"id\":" + id + ",\"user\":\"u" + (id % 10_000) + "\",\"amt\":" + (id % 1000) / 10.0 + ",\"ts\":\""
                            + java.time.Instant.ofEpochSecond(ts + id) + "\"}\n");
                }
            }
        }
    }
}
