package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.schema.Topics;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of an aggregation over a {@code topicPattern} whose topics have different partition
 * counts, on a real broker: each reports its share by topic and partition (never the pattern, never
 * bare partition numbers), the two shares together hold every partition once, a topic created to
 * match the pattern while they run included, and the progress of the instance that cuts the batches
 * names its own share by topic.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class KafkaSourceShareTest {
    private static final String PIPELINE = "share";

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void twoInstancesOverAPatternEachReportTheirTopicsPartitionsAndTogetherAllOnce() throws Exception {
        Map<String, Object> client = KAFKA.client();
        createTopics(client, Map.of("share-a", 3, "share-b", 2, Topics.results(PIPELINE), 3, Topics.deadLetter(PIPELINE), 1));
        KafkaInput input = new KafkaInput(subscription("share-.*"), "deadLetter", Topics.deadLetter(PIPELINE), 3, 3);
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        StreamsAggregation b = null;
        try (StreamsAggregation a = new StreamsAggregation(AggregationConfig.builder(PIPELINE, spec, dir.resolve("a"))
                .instance("a", 1).kafkaInput(input).build(), client)) {
            b = new StreamsAggregation(AggregationConfig.builder(PIPELINE, spec, dir.resolve("b")).instance("b", 1).kafkaInput(input).build(),
                    client);
            List<StreamsAggregation> both = List.of(a, b);
            awaitShared(both, Map.of("share-a", List.of(0, 1, 2), "share-b", List.of(0, 1)));

            for (StreamsAggregation s : both) {
                StageShare share = s.workShare().orElseThrow();
                assertThat(share.partitions()).as("no partition numbers without their topics").isEmpty();
                assertThat(share.topics()).as("the share as /instance shows it").isEqualTo(s.share().topics()).isNotEmpty();
            }

            produce(client, List.of("share-a", "share-b"));
            await("a batch, cut by the instance that reads partition 0 of the topics").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                        boolean ran = false;
                        for (StreamsAggregation s : both) {
                            Optional<Progress> p = s.runBatch();
                            if (p.isPresent()) {
                                Map<String, Object> metrics = p.get().sources().get(0).metrics();
                                assertThat(metrics.get("instance")).isEqualTo(s.config().instanceId());
                                assertThat(metrics.get("partitions")).as("its share by topic").isEqualTo(s.share().topics());
                                ran = true;
                            }
                        }
                        assertThat(ran).isTrue();
                    });

            createTopics(client, Map.of("share-c", 2)); // matched after the start
            awaitShared(both, Map.of("share-a", List.of(0, 1, 2), "share-b", List.of(0, 1), "share-c", List.of(0, 1)));
        } finally {
            if (b != null) {
                b.close();
            }
        }
    }

    /** Waits until each instance holds some partitions and together they hold {@code all}, each partition once. */
    private static void awaitShared(List<StreamsAggregation> instances, Map<String, List<Integer>> all) {
        await("the topics' partitions " + all + " shared by both instances, each once").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    Map<String, List<Integer>> union = new TreeMap<>();
                    for (StreamsAggregation s : instances) {
                        Map<String, List<Integer>> topics = s.share().topics();
                        assertThat(topics).as("instance %s's share", s.config().instanceId()).isNotEmpty();
                        topics.forEach((t, ps) -> union.computeIfAbsent(t, x -> new ArrayList<>()).addAll(ps));
                    }
                    union.values().forEach(ps -> ps.sort(null));
                    assertThat(union).isEqualTo(all);
                });
    }

    private static KafkaSubscription subscription(String pattern) {
        return KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topicPattern", pattern, "format", "json",
                "schema", GoldenDedupTest.SCHEMA.toDdl())));
    }

    private static void createTopics(Map<String, Object> client, Map<String, Integer> topics) throws Exception {
        try (Admin admin = Admin.create(client)) {
            List<NewTopic> t = new ArrayList<>();
            topics.forEach((name, partitions) -> t.add(new NewTopic(name, partitions, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG)));
            admin.createTopics(t).all().get();
        }
    }

    /** A row to every partition of each topic. */
    private static void produce(Map<String, Object> client, List<String> topics) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(client, new ByteArraySerializer(), new ByteArraySerializer());
             Admin admin = Admin.create(client)) {
            int id = 0;
            for (String topic : topics) {
                int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
                for (int partition = 0; partition < partitions; partition++) {
                    id++;
                    String row = "{\"id\": " + id + ", \"user\": \"u" + id + "\", \"amt\": 1.0, \"ts\": \"2026-10-05T07:0" + id + ":00Z\"}";
                    p.send(new ProducerRecord<>(topic, partition, null, row.getBytes(StandardCharsets.UTF_8))).get();
                }
            }
        }
    }
}
