package io.tributary.topology.internal;

import io.tributary.schema.Progress;
import io.tributary.topology.AggregateMetrics;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * The aggregation's progress lines, as Spark's {@code StreamingQueryProgress} with one
 * {@code stateOperators} entry: the figures of a batch are the differences of the topology's
 * counters ({@link AggregateMetrics}) since the last line.
 */
public final class BatchProgress {
    private final String name;
    private final String operatorName;
    private final String description;
    /** This process among several instances that share the application's tasks; null when it is the only one. */
    private final String instanceId;
    /** Over a Kafka source, this instance's partitions of each of its topics now; null over the events topic. */
    private final Supplier<Map<String, List<Integer>>> sourceShare;
    private final String runId = UUID.randomUUID().toString();
    private Map<String, Double> lastCounts = Map.of();
    private long batchId;

    /**
     * @param name the stage's name, e.g. {@code quickstart/aggregate}
     * @param operatorName Spark's name of the state operator, e.g. {@code windowedAggregate}
     * @param applicationId the Kafka Streams application's id
     * @param instanceId this process among several instances that share the tasks, or null: its
     *     progress then names it and the partitions of its batch
     * @param sourceShare over a Kafka source, the partitions this instance's tasks read of each of the source's
     *     topics, which its progress then names by topic (one instance cuts every batch, of all partitions); null
     *     over the events topic
     */
    public BatchProgress(String name, String operatorName, String applicationId, String eventsTopic, String instanceId,
                         Supplier<Map<String, List<Integer>>> sourceShare) {
        this.sourceShare = sourceShare;
        this.name = name;
        this.operatorName = operatorName;
        this.description = "KafkaStreams[" + applicationId + " <- " + eventsTopic + "]";
        this.instanceId = instanceId;
    }

    /** The application started again: its counters start from zero. */
    public void countersReset() {
        lastCounts = Map.of();
    }

    /**
     * The next batch's progress.
     *
     * @param before the committed offsets at the end of the last batch
     * @param now the committed offsets at the end of this one
     */
    public Progress next(long startMs, long ms, Map<TopicPartition, Long> before, Map<TopicPartition, Long> now,
                         Map<MetricName, ? extends Metric> metrics) {
        Map<String, Double> counts = counts(metrics);
        long rows = delta(counts, AggregateMetrics.INPUT_ROWS);
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("operatorName", operatorName);
        op.put("numRowsTotal", counts.getOrDefault(AggregateMetrics.ROWS_TOTAL, 0.0).longValue());
        op.put("numRowsUpdated", delta(counts, AggregateMetrics.ROWS_UPDATED));
        op.put("numRowsDroppedByWatermark", delta(counts, AggregateMetrics.ROWS_DROPPED));
        op.put("numOutputRows", delta(counts, AggregateMetrics.OUTPUT_ROWS));
        lastCounts = counts;
        Map<String, String> eventTime = null;
        Double wm = counts.get(AggregateMetrics.WATERMARK_MS);
        if (wm != null && wm > 0) {
            eventTime = Map.of("watermark", Progress.timestamp(wm.longValue()));
        }
        return new Progress(name, runId, Progress.timestamp(startMs), batchId++, rows,
                0.0, Progress.rate(rows, ms), Map.of("triggerExecution", ms), eventTime, List.of(op),
                List.of(new Progress.Source(description, offsetsJson(before), offsetsJson(now), rows, sourceMetrics(now))),
                null);
    }

    private Map<String, Object> sourceMetrics(Map<TopicPartition, Long> now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("note", "offsets count records: a record holds one or more rows, and watermark markers are records");
        if (instanceId != null) {
            m.put("instance", instanceId);
            m.put("partitions", sourceShare != null ? sourceShare.get()
                    : now.keySet().stream().map(TopicPartition::partition).sorted().toList());
        }
        return m;
    }

    /** The aggregation's counters over every task: totals, and the watermark (the largest). */
    private static Map<String, Double> counts(Map<MetricName, ? extends Metric> metrics) {
        Map<String, Double> out = new HashMap<>();
        metrics.forEach((metricName, metric) -> {
            if (AggregateMetrics.GROUP.equals(metricName.group()) && metric.metricValue() instanceof Number n) {
                double v = n.doubleValue();
                out.merge(metricName.name(), v, AggregateMetrics.WATERMARK_MS.equals(metricName.name()) ? Math::max : Double::sum);
            }
        });
        return out;
    }

    /** The aggregation's metrics ({@link AggregateMetrics} names) summed over its tasks, those without a value left out. */
    public static Map<String, Double> sums(Map<MetricName, ? extends Metric> metrics) {
        Map<String, Double> out = new HashMap<>();
        metrics.forEach((name, metric) -> {
            if (AggregateMetrics.GROUP.equals(name.group()) && metric.metricValue() instanceof Number n
                    && !Double.isNaN(n.doubleValue())) {
                out.merge(name.name(), n.doubleValue(), Double::sum);
            }
        });
        return out;
    }

    private long delta(Map<String, Double> counts, String metric) {
        return (long) (counts.getOrDefault(metric, 0.0) - lastCounts.getOrDefault(metric, 0.0));
    }

    /**
     * Offsets as Spark prints them, by topic and partition: the topics of a Kafka source (its
     * several topics, or those its pattern matched) each under its own name, never under the
     * source's description, which the lag probe would ask Kafka about as a topic.
     */
    private Map<String, Map<String, Long>> offsetsJson(Map<TopicPartition, Long> offsets) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        offsets.entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(a.partition(), b.partition())))
                .forEach(e -> out.computeIfAbsent(e.getKey().topic(), t -> new LinkedHashMap<>())
                        .put(String.valueOf(e.getKey().partition()), e.getValue()));
        return out;
    }
}
