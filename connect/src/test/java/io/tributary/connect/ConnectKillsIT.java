package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Delta connector's dropDuplicates and history (SCD type 2) while Connect workers crash ({@link ConnectCluster}): both
 * connectors run side by side, three tasks each, a producer writes changes with repeats and out-of-order sequences, and
 * workers are killed (SIGKILL, the process, not a REST restart) while the tasks commit; each table ends as one uninterrupted
 * run makes it, worked out here from the records by the documented rules ({@code docs/connect.md}, {@code docs/cdc.md}).
 */
@Tag("integration")
@Tag("scenarios")
class ConnectKillsIT extends ConnectCluster {
    private static final String DEDUP = "killed-dedup";
    private static final String HISTORY = "killed-history";

    /**
     * One worker killed just after a commit landed, then another, then all three at once while a task's commit had written its
     * data files but not its log entry (seen so with every worker frozen); each time started again. The dedup table holds
     * each key's first row once, the history table every version of every key, none twice.
     */
    @Test
    void workersKilledWhileDedupAndHistoryCommitEndAsOneUninterruptedRun() throws Exception {
        Path dedupTable = dir.resolve(DEDUP).resolve("table");
        Path historyTable = dir.resolve(HISTORY).resolve("table");
        createTopics(Map.of(DEDUP, 3, HISTORY, 3));
        put(DEDUP + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + DEDUP
                + "\", \"delta.path\": \"" + dedupTable + "\", \"tasks.max\": \"3\", \"schema\": \"id INT, v STRING\","
                + " \"dropDuplicates.keys\": \"id\", \"allowedLatency\": \"1 seconds\"}");
        put(HISTORY + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + HISTORY
                + "\", \"delta.path\": \"" + historyTable + "\", \"tasks.max\": \"3\", \"mode\": \"upsert\", \"keys\": \"id\","
                + " \"schema\": \"op STRING, id INT, v STRING, lsn BIGINT\", \"sequenceBy\": \"lsn\", \"deleteWhen\": \"op = 'd'\","
                + " \"exceptColumns\": \"op\", \"history\": \"true\", \"allowedLatency\": \"1 seconds\", \"rowsPerFile\": \"50\"}");
        Random random = new Random(41);
        TopicRecords dedup = new TopicRecords(DEDUP, dedupRecords(random, 6000, 1500));
        TopicRecords history = new TopicRecords(HISTORY, historyChanges(random, 400));
        TableLog dedupLog = new TableLog(dedupTable);
        TableLog historyLog = new TableLog(historyTable);
        long t0 = System.nanoTime();
        Map<TableLog, Set<String>> cutShort;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(new HashMap<>(KAFKA.client()), new StringSerializer(),
                new StringSerializer())) {
            Runnable slice = () -> {
                dedup.sendNext(producer, 0.05);
                history.sendNext(producer, 0.05);
                producer.flush();
            };
            slice.run();
            awaitCommit(List.of(dedupLog, historyLog), "the first commits");
            for (int worker : new int[] {1, 2}) {
                slice.run();
                awaitCommit(List.of(dedupLog, historyLog), "a commit before worker " + worker + " is killed");
                workers.restart(worker, true);
                System.out.printf("killed: worker %d (SIGKILL) after a commit, answering again at %.1f s; sent %d + %d records%n",
                        worker, (System.nanoTime() - t0) / 1e9, dedup.sent, history.sent);
            }
            cutShort = killAllInsideACommit(List.of(dedupLog, historyLog), slice,
                    () -> dedup.sent < dedup.records.size() * 0.8);
            System.out.printf("killed: all workers (SIGKILL) inside a commit, answering again at %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);
            while (dedup.sent < dedup.records.size() || history.sent < history.records.size()) {
                slice.run();
            }
        }
        for (TopicRecords s : List.of(dedup, history)) {
            Path table = s == dedup ? dedupTable : historyTable;
            var end = endOffsets(s.topic);
            await(s.topic + ": the table holds every partition's end offset " + end, Duration.ofSeconds(300),
                    () -> PartitionSink.allOffsets(table.toString()).equals(end));
        }
        System.out.printf("both tables at the topics' ends at %.1f s: %d + %d records, %d first rows, %d versions; data files the"
                + " kills left uncommitted: %d and %d%n", (System.nanoTime() - t0) / 1e9, dedup.sent, history.sent,
                ChangeOracle.firstRowPerKey(dedup.values()).size(), ChangeOracle.versions(history.values(), "v").size(),
                dedupLog.uncommitted().size(), historyLog.uncommitted().size());

        cutShort.forEach((log, files) -> assertThat(log.committed()).as("%s: no commit names the data files of the commit the"
                + " kill cut short", log.table).doesNotContainAnyElementsOf(files));
        List<String> dedupRows = DeltaTables.readRows(dedupTable.toString()).stream().map(r -> r[0] + "|" + r[1]).toList();
        assertThat(dedupRows.stream().map(r -> r.split("\\|")[0]).toList()).as("keys of the dedup table").doesNotHaveDuplicates();
        assertThat(sorted(dedupRows)).as("each key's first row, once").isEqualTo(sorted(ChangeOracle.firstRowPerKey(dedup.values())));
        List<String> historyRows = DeltaTables.readRows(historyTable.toString()).stream()
                .map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4]).toList();
        assertThat(historyRows.stream().map(r -> r.split("\\|")[0] + "@" + r.split("\\|")[3]).toList())
                .as("(id, __START_AT) of the history table").doesNotHaveDuplicates();
        assertThat(sorted(historyRows)).as("every key's versions, each from its change's lsn to the next change's")
                .isEqualTo(sorted(ChangeOracle.versions(history.values(), "v")));
    }

    /**
     * Sends slices until a batch's data files are in a table's folder but not in its log, freezes every worker (SIGSTOP), and if
     * the commit is still open then, kills them all (SIGKILL) and starts them again; otherwise lets them run on and tries again.
     * The data files of the commits it cut short, per table.
     */
    private static Map<TableLog, Set<String>> killAllInsideACommit(List<TableLog> logs, Runnable slice, BooleanSupplier mayRetry)
            throws Exception {
        Map<TableLog, Set<String>> before = new HashMap<>();
        for (TableLog log : logs) {
            before.put(log, log.uncommitted()); // left by the kills before, or a commit that goes on
        }
        for (int attempt = 1; ; attempt++) {
            assertThat(mayRetry.getAsBoolean()).as("a commit seen open before the records run out (attempt %d)", attempt).isTrue();
            slice.run();
            boolean seen;
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).pollDelay(Duration.ZERO)
                        .pollInSameThread().until(() -> logs.stream().anyMatch(l -> !newFiles(l, before).isEmpty()));
                seen = true;
            } catch (ConditionTimeoutException e) {
                seen = false;
            }
            if (!seen) {
                continue;
            }
            for (int i = 0; i < workers.size(); i++) {
                workers.suspend(i);
            }
            Map<TableLog, Set<String>> open = new HashMap<>();
            for (TableLog log : logs) {
                log.forget(); // the log read again whole while nothing writes it
                Set<String> files = newFiles(log, before);
                if (!files.isEmpty()) {
                    open.put(log, files);
                }
            }
            if (!open.isEmpty()) {
                System.out.printf("attempt %d: every worker frozen with data files written but not committed: %s%n", attempt,
                        open.entrySet().stream().map(e -> e.getKey().table.getParent().getFileName() + " " + e.getValue()).toList());
                workers.killAllAndRestart();
                return open;
            }
            for (int i = 0; i < workers.size(); i++) {
                workers.resume(i);
            }
        }
    }

    private static Set<String> newFiles(TableLog log, Map<TableLog, Set<String>> before) {
        Set<String> files = log.uncommitted();
        files.removeAll(before.get(log));
        return files;
    }

    /** Waits for a new version of any of the tables. */
    private static void awaitCommit(List<TableLog> logs, String what) {
        Map<TableLog, Long> versions = new HashMap<>();
        logs.forEach(l -> versions.put(l, l.version()));
        await(what, Duration.ofSeconds(180), () -> logs.stream().anyMatch(l -> l.version() > versions.get(l)));
    }

    /** {@code n} records of ids below {@code keys}, the value s&lt;n&gt; of each its place in the stream. */
    static List<ProducerRecord<String, String>> dedupRecords(Random random, int n, int keys) {
        List<ProducerRecord<String, String>> out = new ArrayList<>();
        for (int seq = 0; seq < n; seq++) {
            int id = random.nextInt(keys);
            out.add(new ProducerRecord<>(DEDUP, "[" + id + "]", "{\"id\": " + id + ", \"v\": \"s" + seq + "\"}"));
        }
        return out;
    }

    /**
     * Two to six changes of each of {@code keys} keys with rising lsn (the first an insert, then updates and deletes, a key
     * inserted again after a delete), a third of the keys with one change repeated (half of those with another value), the
     * whole stream shuffled: a key's changes arrive out of order, across batches.
     */
    static List<ProducerRecord<String, String>> historyChanges(Random random, int keys) {
        List<String[]> changes = new ArrayList<>(); // op, id, v, lsn
        long lsn = 0;
        for (int id = 0; id < keys; id++) {
            List<String[]> key = new ArrayList<>();
            int n = 2 + random.nextInt(5);
            for (int i = 0; i < n; i++) {
                lsn += 1 + random.nextInt(5);
                String op = i == 0 ? "c" : random.nextInt(5) == 0 ? "d" : "u";
                key.add(new String[] {op, String.valueOf(id), "v" + lsn, String.valueOf(lsn)});
            }
            if (random.nextInt(3) == 0) {
                String[] c = key.get(random.nextInt(n)).clone();
                if (random.nextBoolean()) {
                    c[2] = "again" + c[3];
                }
                key.add(c);
            }
            changes.addAll(key);
        }
        Collections.shuffle(changes, random);
        return changes.stream().map(c -> new ProducerRecord<>(HISTORY, "[" + c[1] + "]", "{\"op\": \"" + c[0] + "\", \"id\": " + c[1]
                + ", \"v\": \"" + c[2] + "\", \"lsn\": " + c[3] + "}")).toList();
    }

    /** A topic's records, sent slice by slice. */
    static final class TopicRecords {
        final String topic;
        final List<ProducerRecord<String, String>> records;
        int sent;

        TopicRecords(String topic, List<ProducerRecord<String, String>> records) {
            this.topic = topic;
            this.records = records;
        }

        List<String> values() {
            return records.stream().map(ProducerRecord::value).toList();
        }

        void sendNext(KafkaProducer<String, String> producer, double fraction) {
            int to = Math.min(records.size(), sent + (int) Math.ceil(records.size() * fraction));
            for (; sent < to; sent++) {
                producer.send(records.get(sent));
            }
        }
    }
}
