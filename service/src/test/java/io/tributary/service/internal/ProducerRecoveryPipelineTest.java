package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Progress;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.CapturedErr;
import io.tributary.testing.InputFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous pipeline whose ingest transaction Kafka's coordinator aborts for running past the spec's
 * {@code transaction.timeout.ms} (the batch held open while its dead-letter topic is missing): the ingest runs the
 * batch again on a new producer, the run goes on, and the table holds every row once.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ProducerRecoveryPipelineTest {
    @TempDir
    Path dir;

    @Test
    void aBatchTheCoordinatorAbortedIsPublishedOnceAndTheRunGoesOn() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: recovering
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING"
                    rowsPerRecord: 1
                sink:
                  delta:
                    path: out/
                trigger: default
                kafka:
                  transaction.timeout.ms: 2000
                """);
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        String table = dir.resolve("out").toString();
        String deadLetter = Topics.deadLetter("recovering");
        String transactionalId = "tributary-recovering-ingest";
        List<Progress> progress = new CopyOnWriteArrayList<>();
        CapturedErr log = null;
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT); Admin admin = Admin.create(pipeline.clientProps())) {
            Future<RunSummary> run = thread.submit(() -> pipeline.run(spec.trigger(), progress::add));
            InputFiles.place(in, "a.json", "{\"id\": 1, \"user\": \"a\"}", "{\"id\": 2, \"user\": \"b\"}");
            awaitTable(table, 2, run);

            // the dead-letter topic goes: the next batch sends b.json's first row (a record of its own), then waits on its
            // bad line for the topic, its transaction open, until the coordinator aborted it for its timeout and the topic is back
            admin.deleteTopics(List.of(deadLetter)).all().get();
            await("the dead-letter topic is gone").atMost(Duration.ofSeconds(60))
                    .until(() -> !admin.listTopics().names().get().contains(deadLetter));
            log = CapturedErr.start();
            InputFiles.place(in, "b.json", "{\"id\": 3, \"user\": \"c\"}", "{\"id\": ", "{\"id\": 4, \"user\": \"d\"}");
            await("the coordinator aborts the ingest's transaction").atMost(Duration.ofSeconds(60)).until(() -> {
                failIfEnded(run);
                TransactionState s = admin.describeTransactions(List.of(transactionalId)).all().get().get(transactionalId).state();
                return s == TransactionState.PREPARE_ABORT || s == TransactionState.COMPLETE_ABORT;
            });
            admin.createTopics(List.of(new NewTopic(deadLetter, 1, (short) 1))).all().get();

            awaitTable(table, 4, run);
            await("the sink has taken all there is").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        failIfEnded(run);
                        return TopicTail.sinkCaughtUp(pipeline.clientProps(), table, Topics.events("recovering"));
                    });
            assertThat(run).as("the run goes on").isNotDone();
            assertThat(pipeline.stop(Duration.ofSeconds(60))).isTrue();
            run.get();
        } finally {
            if (log != null) {
                log.close();
            }
            thread.shutdownNow();
        }
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0] + "|" + r[1])
                .containsExactlyInAnyOrder("1|a", "2|b", "3|c", "4|d");
        assertThat(log.text()).contains("ingest of pipeline recovering: batch 1: the producer failed"
                + " (InvalidProducerEpochException: ").contains("a new producer takes transactional.id " + transactionalId
                + " over and the batch runs again from its start (attempt 2 of 3)");
    }

    private static void awaitTable(String table, int rows, Future<?> run) {
        await(rows + " rows in the table").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
            failIfEnded(run);
            return DeltaTables.exists(table) && DeltaTables.readRows(table).size() >= rows;
        });
    }

    private static void failIfEnded(Future<?> run) throws Exception {
        if (run.isDone()) {
            run.get();
            throw new AssertionError("the pipeline ended while rows were expected");
        }
    }
}
