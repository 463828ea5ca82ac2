package io.tributary.topology.internal;

import io.tributary.topology.KafkaInput;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * In front of the aggregation (or deduplication) on one partition of a Kafka source's rows topic:
 * rows pass as they come; each source task the batch counts writes its marker to this partition once, and
 * the batch ends here when the last of them arrives: its marker is handed on (the output mode
 * writes), and the task reports the batch written. The markers counted so far are in a
 * changelogged store, so a restart counts on.
 */
final class BatchMerge implements Processor<Object, byte[], Object, Object> {
    private static final String COUNT = "markers.";

    private final SourceWiring.Nodes nodes;
    private final int sourceTasks;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Long> store;

    BatchMerge(SourceWiring.Nodes nodes, KafkaInput input) {
        this.nodes = nodes;
        this.sourceTasks = input.sourceTasks();
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.store = context.getStateStore(nodes.mergeStore());
    }

    @Override
    public void process(Record<Object, byte[]> record) {
        if (!Marker.isMarker(record.headers())) {
            context.forward(record, nodes.processor());
            return;
        }
        int task = context.taskId().partition();
        Marker marker = Marker.parse(record.value(), "rows topic partition " + task);
        String key = COUNT + marker.batchId();
        Long seen = store.get(key);
        long now = (seen == null ? 0 : seen) + 1;
        if (now < (marker.sources() > 0 ? marker.sources() : sourceTasks)) { // a batch written before markers named their count
            store.put(key, now);
            return;
        }
        store.delete(key);
        context.forward(record, nodes.processor());
        SourceBatch.Report report = new SourceBatch.Report(SourceBatch.Report.AGGREGATE, marker.batchId(), task, null);
        context.forward(new Record<>(report.key(), report.toJson(), record.timestamp(), new RecordHeaders()), nodes.mergeReportsSink());
    }
}
