package io.tributary.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * A batch over a Kafka source, as the stage publishes it to every task (the batches topic, key
 * {@link #KEY}): its id, Spark's watermark of the batch (the largest event time of every earlier
 * batch minus the delay, never lower; null without one) and the source offsets each task reads
 * up to before it ends the batch ({@code bounds}: what was in the topics when the batch began).
 * A task ends it where it is once it has read that far, which may be further. {@code starts}: where the query began
 * in each partition (Spark's startingOffsets or startingTimestamp; empty: each partition's earliest), carried by every batch.
 * {@code known}: the source's partitions the batch knows (those there when it began; in an availableNow run, when the run
 * began): a source task reads no other, and the tasks that end the batch are one per partition number among them;
 * null in a batch written before batches named them.
 */
public record SourceBatch(long batchId, Long watermarkMs, Map<TopicPartition, Long> bounds, Map<TopicPartition, Long> starts,
                          Set<TopicPartition> known) {
    /** The key of the batch in progress in the batches topic: only the last one counts. */
    public static final String KEY = "batch";
    private static final ObjectMapper JSON = new ObjectMapper();

    public SourceBatch {
        known = known == null ? null : Set.copyOf(known);
    }

    public SourceBatch(long batchId, Long watermarkMs, Map<TopicPartition, Long> bounds, Map<TopicPartition, Long> starts) {
        this(batchId, watermarkMs, bounds, starts, null);
    }

    /**
     * The source tasks that end this batch: task k reads partition k of every topic, so one per partition number the
     * batch knows (at least one); {@code otherwise} for a batch that names no partitions.
     */
    public int tasks(int otherwise) {
        if (known == null) {
            return otherwise;
        }
        int tasks = 1;
        for (TopicPartition tp : known) {
            tasks = Math.max(tasks, tp.partition() + 1);
        }
        return tasks;
    }

    public byte[] toJson() {
        ObjectNode n = JSON.createObjectNode().put("batchId", batchId);
        if (watermarkMs == null) {
            n.putNull("watermarkMs");
        } else {
            n.put("watermarkMs", watermarkMs);
        }
        ObjectNode b = n.putObject("bounds");
        bounds.forEach((tp, o) -> b.with(tp.topic()).put(Integer.toString(tp.partition()), o));
        ObjectNode s = n.putObject("starts");
        starts.forEach((tp, o) -> s.with(tp.topic()).put(Integer.toString(tp.partition()), o));
        if (known != null) {
            ObjectNode k = n.putObject("known");
            known.forEach(tp -> k.withArray(tp.topic()).add(tp.partition()));
        }
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static SourceBatch parse(byte[] value) {
        try {
            JsonNode n = JSON.readTree(value);
            JsonNode w = n.path("watermarkMs");
            return new SourceBatch(n.path("batchId").asLong(), w.isNull() || w.isMissingNode() ? null : w.asLong(),
                    offsets(n.path("bounds")), offsets(n.path("starts")), known(n.path("known")));
        } catch (IOException | RuntimeException e) {
            throw KafkaSourceErrors.badBatchRecord(new String(value, StandardCharsets.UTF_8), e);
        }
    }

    private static Set<TopicPartition> known(JsonNode n) {
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        Set<TopicPartition> out = new HashSet<>();
        n.fields().forEachRemaining(t -> t.getValue().forEach(p -> out.add(new TopicPartition(t.getKey(), p.asInt()))));
        return out;
    }

    private static Map<TopicPartition, Long> offsets(JsonNode n) {
        Map<TopicPartition, Long> out = new HashMap<>();
        n.fields().forEachRemaining(t -> t.getValue().fields().forEachRemaining(p ->
                out.put(new TopicPartition(t.getKey(), Integer.parseInt(p.getKey())), p.getValue().asLong())));
        return out;
    }

    /**
     * A task's report that it ended a batch (the reports topic, key = its kind and partition): a
     * source task (kind {@code source}) reports the largest event time of the rows it read so far,
     * in ms (null: none); an aggregation task (kind {@code aggregate}) that it wrote the batch's output.
     */
    public record Report(String kind, long batchId, int task, Long maxEventTimeMs) {
        public static final String SOURCE = "source";
        public static final String AGGREGATE = "aggregate";

        public byte[] key() {
            return (kind + "-" + task).getBytes(StandardCharsets.UTF_8);
        }

        public byte[] toJson() {
            return ("{\"kind\":\"" + kind + "\",\"batchId\":" + batchId + ",\"task\":" + task + ",\"maxEventTimeMs\":" + maxEventTimeMs
                    + "}").getBytes(StandardCharsets.UTF_8);
        }

        public static Report parse(byte[] value) {
            try {
                JsonNode n = JSON.readTree(value);
                JsonNode m = n.path("maxEventTimeMs");
                return new Report(n.path("kind").asText(SOURCE), n.path("batchId").asLong(), n.path("task").asInt(), m.isNull() || m.isMissingNode() ? null : m.asLong());
            } catch (IOException | RuntimeException e) {
                throw KafkaSourceErrors.badBatchRecord(new String(value, StandardCharsets.UTF_8), e);
            }
        }
    }
}
