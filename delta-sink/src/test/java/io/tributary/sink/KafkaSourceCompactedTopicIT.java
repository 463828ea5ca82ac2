package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted topic ({@code cleanup.policy=compact}) whose log cleaner has really run: records the
 * table had not read yet are removed by compaction between two runs, leaving gaps in the offsets. The
 * second run, with {@code failOnDataLoss: true}, raises no data-loss alarm at the gaps and reads
 * exactly the records a plain read_committed consumer gets from the table's offsets, offsets, keys
 * and tombstones included. Compaction's timing is the broker's, so the expected table is what the
 * broker returns, not a recorded one.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaSourceCompactedTopicIT {
    /** Every record is written this long ago (its CreateTime), so that each append rolls a new segment (segment.ms). */
    private static final long AN_HOUR_AGO = System.currentTimeMillis() - 3_600_000L;

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    @Test
    void recordsCompactedAwayBeforeTheTableReadThemAreNoDataLossAndTheRestIsReadAsAConsumerReadsIt() throws Exception {
        String topic = "compacted-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(KAFKA.client())) {
            // the cleaner looks for dirty logs every 15 s by default; sooner here (a dynamic broker setting), if the broker takes it
            try {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, ""), List.of(new AlterConfigOp(
                        new ConfigEntry("log.cleaner.backoff.ms", "200"), AlterConfigOp.OpType.SET)))).all().get();
            } catch (ExecutionException e) {
                // the default backoff: the wait below is longer
            }
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "segment.ms", "100", "min.cleanable.dirty.ratio", "0.01", "min.compaction.lag.ms", "0")))).all().get();
        }
        publish(topic, 1); // offsets 0-4 in each partition, the commit marker at 5
        land(topic);
        Map<Integer, Long> afterFirst = DeltaTables.sinkOffsets(table()).orElseThrow().offsets();
        assertThat(afterFirst).containsEntry(0, 6L).containsEntry(1, 6L);

        List<RecordMetadata> superseded = publish(topic, 2); // every key again: compaction removes these ...
        publish(topic, 3); // ... for these (k4 and k9 now tombstones), before the table read them
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> {
            List<Long> offsets = plain(topic, afterFirst).stream().map(ConsumerRecord::offset).toList();
            return superseded.stream().noneMatch(m -> offsets.contains(m.offset()));
        });
        List<String> expected = plain(topic, afterFirst).stream().map(r -> r.partition() + "@" + r.offset() + " "
                + new String(r.key(), StandardCharsets.UTF_8) + "=" + (r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8)))
                .sorted().toList();
        // the gaps: each partition's records from the table's offset 6 start at 12, after the compacted 6-10 and the marker at 11
        assertThat(expected).hasSize(10).allMatch(s -> s.matches("[01]@1[2-6] .*"));

        Progress second = land(topic);
        Map<String, Object> metrics = second.sources().get(0).metrics();
        assertThat(metrics == null ? Map.<String, Object>of() : metrics).doesNotContainKey("numRecordsLost");
        List<String> read = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            long offset = (Long) r[5];
            if (offset >= 6) {
                String value = r[0] == null ? null : "{\"id\":" + r[0] + ",\"v\":" + r[1] + "}";
                read.add(r[4] + "@" + offset + " " + new String((byte[]) r[2], StandardCharsets.UTF_8) + "=" + value);
            }
        }
        read.sort(null);
        assertThat(read).containsExactlyElementsOf(expected);
        assertThat(DeltaTables.readRows(table())).hasSize(20);
        assertThat(DeltaTables.sinkOffsets(table()).orElseThrow().offsets()).containsEntry(0, 18L).containsEntry(1, 18L);
    }

    /** One transaction: keys k0-k4 on partition 0 and k5-k9 on partition 1, value {"id":i,"v":version}; k4 and k9 tombstones at version 3. */
    private static List<RecordMetadata> publish(String topic, int version) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        KAFKA.inTransaction(p -> {
            for (int i = 0; i < 10; i++) {
                String value = version == 3 && i % 5 == 4 ? null : "{\"id\":" + i + ",\"v\":" + version + "}";
                sent.add(p.send(new ProducerRecord<>(topic, i / 5, AN_HOUR_AGO, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        value == null ? null : value.getBytes(StandardCharsets.UTF_8))));
            }
        });
        List<RecordMetadata> out = new ArrayList<>();
        for (Future<RecordMetadata> f : sent) {
            try {
                out.add(f.get());
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    /** What a plain read_committed consumer gets of the topic from {@code from}. */
    private static Collection<ConsumerRecord<byte[], byte[]>> plain(String topic, Map<Integer, Long> from) {
        return TopicTail.records(KAFKA.client(), topic, from);
    }

    private String table() {
        return dir.resolve("t").toString();
    }

    private Progress land(String topic) {
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", topic,
                "schema", "id INT, v INT", "includeMetadata", "true", "failOnDataLoss", "true")));
        Values sink = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), k -> null, (s, text, e) -> e);
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "compacted-sink",
                "compacted/sink").settings(sink).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        try (DeltaSink s = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            return s.runBatch().orElseThrow();
        }
    }
}
