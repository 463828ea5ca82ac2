package io.tributary.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.SettledLog;
import io.tributary.schema.Topics;
import io.tributary.testing.CommittedRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What of a topic a reader has not taken yet, for tests that must know a stage has finished
 * before they look for duplicates: a continuous pipeline never says it is done, but once the
 * records past a stage's committed offsets are none (or only watermark markers, which the sink
 * reads but commits only with rows), nothing is left for it to write. Shared with other modules
 * through this module's test-jar.
 */
public final class TopicTail {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TopicTail() {
    }

    /**
     * Whether the sink writing {@code table} has committed every row of {@code topic}: the records
     * after the offsets stored in the table, up to the topic's settled end, are markers at most.
     */
    public static boolean sinkCaughtUp(Map<String, Object> clientProps, String table, String topic) {
        if (!DeltaTables.exists(table)) {
            return false;
        }
        Map<Integer, Long> stored = DeltaTables.sinkOffsets(table).map(SinkOffsets::offsets).orElse(Map.of());
        return records(clientProps, topic, stored).stream().allMatch(TopicTail::marker);
    }

    /**
     * The records of {@code topic} (read_committed) after {@code from} (per partition; a partition
     * missing there from its start) up to the end offsets once no transaction is open.
     */
    public static List<ConsumerRecord<byte[], byte[]>> records(Map<String, Object> clientProps, String topic, Map<Integer, Long> from) {
        return CommittedRecords.read(clientProps, topic, from,
                (c, props, tps) -> SettledLog.endOffsets(c, props, tps, Duration.ofSeconds(30)), Duration.ofSeconds(60));
    }

    /**
     * The values of {@code topic}'s records (read_committed, from its start) as JSON: what a user reads of a
     * dead-letter topic ({@code file}, {@code line} or {@code topic}, {@code offset}, {@code field}, {@code reason}, {@code text}).
     */
    public static List<JsonNode> json(Map<String, Object> clientProps, String topic) {
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records(clientProps, topic, Map.of())) {
            try {
                out.add(JSON.readTree(r.value()));
            } catch (IOException e) {
                throw new UncheckedIOException("a record of " + topic + " that is no JSON", e);
            }
        }
        return out;
    }

    /** A watermark marker ({@link Topics#MARKER_HEADER}), not a row. */
    public static boolean marker(ConsumerRecord<byte[], byte[]> r) {
        return r.headers().lastHeader(Topics.MARKER_HEADER) != null;
    }
}
