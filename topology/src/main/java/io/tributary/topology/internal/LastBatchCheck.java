package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;
import io.tributary.topology.AggregateMetrics;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the aggregation can still end the batch of the last rows it read. It writes a batch's
 * output at the batch's marker, and asks for a commit there; rows that no marker follows would
 * wait for the commit interval (a minute), then leave their output unwritten. When a task has
 * read its partition of the events topic up to the end while its batch is still open
 * ({@link AggregateMetrics#OPEN_BATCH_POSITION}), that marker is not in the topic: a bounded run
 * fails at once with what happened and what to do; an unbounded run waits for the next batch's
 * marker, and says so once.
 */
public final class LastBatchCheck {
    private static final Logger LOG = LoggerFactory.getLogger(LastBatchCheck.class);

    private final String eventsTopic;
    private final ControlRecordGap gap;
    private final boolean bounded;
    /** The open batches already warned about (unbounded runs): their position, by partition. */
    private final Map<TopicPartition, Long> warned = new HashMap<>();

    public LastBatchCheck(String eventsTopic, ControlRecordGap gap, boolean bounded) {
        this.eventsTopic = eventsTopic;
        this.gap = gap;
        this.bounded = bounded;
    }

    /**
     * @param metrics the Kafka Streams application's metrics
     * @param end the events topic's read_committed end offsets the stage waits for
     * @throws TributaryException in a bounded run, when a partition's last batch cannot end
     */
    public void check(Map<MetricName, ? extends Metric> metrics, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> open : openBatches(metrics).entrySet()) {
            TopicPartition tp = open.getKey();
            Long e = end.get(tp);
            long at = open.getValue();
            if (e == null || at > e || (at < e && !gap.onlyControlRecords(Map.of(tp, at), Map.of(tp, e)))) {
                continue; // records left to read up to the end: the batch's marker may be among them
            }
            String what = "the aggregation read " + tp + " up to its end (offset " + at + ") but no batch-end marker follows"
                    + " its last rows, so their results cannot be written";
            if (bounded) {
                throw TopologyErrors.noMarkers(what);
            }
            if (!Long.valueOf(at).equals(warned.put(tp, at))) {
                LOG.warn("{}; they will be written at the next batch's marker", what);
            }
        }
    }

    /** The events partitions whose task has an open batch, with its position. */
    private Map<TopicPartition, Long> openBatches(Map<MetricName, ? extends Metric> metrics) {
        Map<TopicPartition, Long> out = new HashMap<>();
        metrics.forEach((name, metric) -> {
            if (AggregateMetrics.GROUP.equals(name.group()) && AggregateMetrics.OPEN_BATCH_POSITION.equals(name.name())
                    && metric.metricValue() instanceof Number n && n.doubleValue() >= 0) {
                int partition = TaskId.parse(name.tags().get(AggregateMetrics.TAG_TASK)).partition();
                out.put(new TopicPartition(eventsTopic, partition), n.longValue());
            }
        });
        return out;
    }
}
