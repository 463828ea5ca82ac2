package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connect workers restarted under both connectors ({@link ConnectCluster}): cleanly, hard, and
 * killed inside a task's open transaction; the topic and the table hold every row once. Three restarts in the
 * scenarios step ({@code -Pscenarios}), twelve in the soak ({@code -Psoak}).
 */
@Tag("integration")
class ConnectRestartsIT extends ConnectCluster {
    /**
     * Kafka's exactly-once source test shape, short: workers stopped and started again while files
     * keep coming, cleanly (SIGTERM), hard (SIGKILL) and cleanly, then one killed inside its task's
     * open transaction; the topic holds every row once and so does the table.
     */
    @Test
    @Tag("scenarios")
    void workerRestartsCleanAndHardKeepTopicAndTableExact() throws Exception {
        restartsKeepTopicAndTableExact("restarts", 3);
    }

    /** The same with twelve restarts, six clean and six hard, as Kafka's own test: {@code -Psoak -Dit.test=ConnectRestartsIT}. */
    @Test
    @Tag("soak")
    void twelveWorkerRestartsCleanAndHardKeepTopicAndTableExact() throws Exception {
        restartsKeepTopicAndTableExact("restarts12", 12);
    }

    /**
     * {@code restarts} worker restarts, alternately clean and hard, each after some of the newest
     * files reached the table, then a hard kill of the worker whose task has a transaction open.
     */
    static void restartsKeepTopicAndTableExact(String topic, int restarts) throws Exception {
        Scenario s = new Scenario(topic, 3);
        for (int round = 0; round < restarts; round++) {
            s.writeFiles(round, 4, 250);
            s.awaitProgress();
            boolean hard = round % 2 == 1;
            long t0 = System.nanoTime();
            workers.restart(round % workers.size(), hard);
            System.out.printf("%s: restart %d of %d, worker %d (%s) answering again after %.1f s%n", topic, round + 1, restarts,
                    round % workers.size(), hard ? "SIGKILL" : "SIGTERM", (System.nanoTime() - t0) / 1e9);
        }
        s.awaitExact();

        // a worker killed while its task's transaction is open: the file's records written so far are aborted. The worker
        // is frozen and the transaction seen open before the kill; a commit request it sent just before the freeze can
        // still reach the broker after the look (then the file commits whole): another file, until a kill aborts one
        long abortedBefore = count(topic, "read_uncommitted") - s.rows; // a restart above may have aborted a transaction too
        long aborted;
        int attempt = 0;
        do {
            attempt++;
            String name = "part-big-" + attempt + ".json";
            s.writeFile(name, 10_000_000 + attempt * 200_000, 120_000);
            int owner = Utils.toPositive(Utils.murmur2(name.getBytes(StandardCharsets.UTF_8))) % 3;
            boolean frozenOpen = killInsideOpenTransaction(topic, topic + "-files", owner, workerOf(topic + "-files", owner));
            s.awaitExact();
            aborted = count(topic, "read_uncommitted") - s.rows;
            System.out.printf("%s: file %d: %s; %d records aborted%n", topic, attempt,
                    frozenOpen ? "worker killed with the transaction seen open" : "the transaction committed before the freeze",
                    aborted - abortedBefore);
        } while (aborted == abortedBefore && attempt < 5);
        assertThat(aborted).as("records of the killed transaction stay in the log, aborted").isGreaterThan(abortedBefore);
        s.writeFiles(restarts, 4, 250);
        s.awaitExact();
    }

    /**
     * Kills {@code worker} while task {@code task} of {@code connector} has a transaction open with
     * records in {@code topic}: once the broker shows it so (DescribeTransactions: ongoing, on the
     * topic; the topic's end past its last stable offset), the worker is frozen (SIGSTOP), the broker
     * asked again while the worker cannot commit, and only then is it killed (SIGKILL). False (the
     * worker resumed) when the transaction committed between the first look and the freeze.
     */
    static boolean killInsideOpenTransaction(String topic, String connector, int task, int worker) throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            try {
                Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10)).pollDelay(Duration.ZERO).pollInSameThread()
                        .until(() -> openWithRecords(admin, topic, connector, task));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("no open transaction of task " + task + " of " + connector + " on " + topic + " in 120 s\n" + status(), e);
            }
            workers.suspend(worker);
            if (openWithRecords(admin, topic, connector, task)) {
                workers.restart(worker, true);
                return true;
            }
            workers.resume(worker);
            return false;
        }
    }

    /** True if the task's transaction is ongoing on {@code topic} and holds records there (the topic's end past its last stable offset). */
    static boolean openWithRecords(Admin admin, String topic, String connector, int task) throws Exception {
        String suffix = "-" + connector + "-" + task; // Connect's transactional id: <group>-<connector>-<task>
        List<String> ids = admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                .all().get().stream().map(TransactionListing::transactionalId).filter(id -> id.endsWith(suffix)).toList();
        for (String id : ids) {
            TransactionDescription d = admin.describeTransactions(List.of(id)).description(id).get();
            List<TopicPartition> mine = d.topicPartitions().stream().filter(tp -> tp.topic().equals(topic)).toList();
            if (d.state() != TransactionState.ONGOING || mine.isEmpty()) {
                continue;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            mine.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> written =
                    admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> stable =
                    admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            if (mine.stream().anyMatch(tp -> written.get(tp).offset() > stable.get(tp).offset())) {
                return true;
            }
        }
        return false;
    }

    /** The index of the worker that runs task {@code task} of {@code connector}. */
    static int workerOf(String connector, int task) throws Exception {
        JsonNode status = new ObjectMapper().readTree(workers.call("GET", "/connectors/" + connector + "/status", null).body());
        for (JsonNode t : status.path("tasks")) {
            if (t.path("id").asInt() == task) {
                String id = t.path("worker_id").asText();
                for (int i = 0; i < workers.size(); i++) {
                    if (workers.url(i).endsWith(id)) {
                        return i;
                    }
                }
            }
        }
        throw new AssertionError("task " + task + " of " + connector + " runs nowhere: " + status);
    }

    /** The records of {@code topic} a consumer of {@code isolation} reads. */
    static long count(String topic, String isolation) {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put("isolation.level", isolation);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(x -> new TopicPartition(topic, x.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long n = 0;
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                n += c.poll(Duration.ofMillis(200)).count();
            }
            return n;
        }
    }

}
