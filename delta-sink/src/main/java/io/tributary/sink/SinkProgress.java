package io.tributary.sink;

import io.tributary.schema.Progress;
import io.tributary.sink.internal.CommitResult;
import io.tributary.sink.internal.TopicBatch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A {@link DeltaSink}'s progress records, in the shape of Spark's Kafka source and Delta sink; an
 * instance that shares the topic's partitions also says which ones it owns ({@code instance},
 * {@code partitions} in the source's metrics).
 */
final class SinkProgress {
    /** When a batch's phases ended, epoch milliseconds: its start, the end offsets read, the rows read, the commit. */
    record Times(long start, long latestOffset, long read, long commit) {
    }

    private final SinkConfig config;
    private final String tablePath;
    private final String instanceId;
    private final Supplier<Object> owned;
    private final String runId = UUID.randomUUID().toString();
    private long lastTriggerStartMs = -1;

    /**
     * @param owned the partitions this instance owns as its progress names them (their numbers, or a Kafka source's
     *     topics' by topic), or null (the supplier's value) when it reads them all
     */
    SinkProgress(SinkConfig config, String tablePath, String instanceId, Supplier<Object> owned) {
        this.config = config;
        this.tablePath = tablePath;
        this.instanceId = instanceId;
        this.owned = owned;
    }

    /**
     * @param sources the topic-partition of each number of a Kafka source's offsets (empty: the partitions of the topic)
     * @param lost failOnDataLoss false: records retention deleted before the batch read them (counted as {@code numRecordsLost})
     */
    Progress batch(long batchId, Times t, TopicBatch batch, Map<Integer, Long> start, CommitResult result,
                   Map<Integer, org.apache.kafka.common.TopicPartition> sources, long lost) {
        long rows = batch.rowCount();
        long total = t.commit() - t.start();
        Map<String, Long> durations = new LinkedHashMap<>();
        durations.put("addBatch", result.writeMs() + result.commitMs());
        durations.put("commitOffsets", result.hooksMs());
        durations.put("getBatch", t.read() - t.latestOffset());
        durations.put("latestOffset", t.latestOffset() - t.start());
        durations.put("triggerExecution", total);
        Map<String, Object> sourceMetrics = new LinkedHashMap<>();
        sourceMetrics.put("numMarkerRecords", batch.markers());
        if (lost > 0) {
            sourceMetrics.put("numRecordsLost", lost);
        }
        share(sourceMetrics);
        Progress.Source source = new Progress.Source(description(),
                SinkOffsets.sparkJson(config.topic(), start, sources), SinkOffsets.sparkJson(config.topic(), batch.end(), sources), rows,
                sourceMetrics);
        Map<String, Object> sinkMetrics = new LinkedHashMap<>();
        sinkMetrics.put("deltaVersion", result.version());
        sinkMetrics.put("numFiles", result.files());
        sinkMetrics.putAll(result.metrics());
        if (!result.committed()) {
            sinkMetrics.put("alreadyCommitted", true);
        }
        Progress.Sink sink = new Progress.Sink("DeltaSink[" + tablePath + "]", result.committed() ? rows : 0, sinkMetrics);
        double inputRate = lastTriggerStartMs < 0 ? 0.0 : Progress.rate(rows, t.start() - lastTriggerStartMs);
        lastTriggerStartMs = t.start();
        return new Progress(config.stageName(), runId, Progress.timestamp(t.start()), batchId, rows, inputRate,
                Progress.rate(rows, total), durations, null, null, List.of(source), sink);
    }

    /** A trigger that found nothing new: the next batch id, 0 rows, start = end offsets. */
    Progress idle(long nextBatchId, Map<Integer, Long> offsets, Map<Integer, org.apache.kafka.common.TopicPartition> sources) {
        long now = System.currentTimeMillis();
        Map<String, Map<String, Long>> json = SinkOffsets.sparkJson(config.topic(), offsets, sources);
        Map<String, Object> metrics = new LinkedHashMap<>();
        share(metrics);
        Progress.Source source = new Progress.Source(description(), json, json, 0, metrics.isEmpty() ? null : metrics);
        Progress.Sink sink = new Progress.Sink("DeltaSink[" + tablePath + "]", 0, null);
        return new Progress(config.stageName(), runId, Progress.timestamp(now), nextBatchId, 0, 0.0, 0.0,
                Map.of("triggerExecution", 0L), null, null, List.of(source), sink);
    }

    private String description() {
        return "KafkaV2[Subscribe[" + config.topic() + "]]";
    }

    private void share(Map<String, Object> metrics) {
        Object partitions = owned.get();
        if (partitions != null) {
            metrics.put("instance", instanceId);
            metrics.put("partitions", partitions);
        }
    }
}
