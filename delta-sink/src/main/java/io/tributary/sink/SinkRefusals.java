package io.tributary.sink;

import io.tributary.schema.TributaryException;
import java.util.Map;

/** The errors with which a {@link DeltaSink} refuses to start rather than silently duplicate or leave out rows. */
final class SinkRefusals {
    private SinkRefusals() {
    }

    /** A sink whose instances share the topic's partitions cannot replace the whole table with each batch. */
    static void checkShareable(SinkConfig config) {
        if (config.mode() == SinkMode.COMPLETE && config.keys().isEmpty()) {
            throw new TributaryException("delta sink " + config.appId() + ": mode complete without keys replaces the whole table "
                    + "with each batch, which instances that share the topic's partitions cannot do; run one instance");
        }
    }

    /** The topic was created anew since the table's last batch: its rows would be written again. */
    static TributaryException lostState(SinkConfig config, String tablePath, SinkOffsets s, long lastBatch, String topicId) {
        return new TributaryException("the pipeline's state was lost: topic " + config.topic() + " was created anew since table "
                + tablePath + " recorded its last batch (" + lastBatch + " of sink " + config.appId() + "; topic id in the table "
                + s.topicId() + ", now " + topicId + "), e.g. because the state folder holding the embedded broker was deleted. "
                + "Going on would read every input again and write its rows to the table a second time (what Spark does when "
                + "its checkpoint is deleted). Restore the state folder to go on exactly; or run with --reprocess to accept the "
                + "duplicates; or write to a new table path");
    }

    /** No table (or none of this sink's batches), but the topic was trimmed: the rows before its first offsets are gone. */
    static TributaryException trimmedTopic(SinkConfig config, String tablePath, boolean tableExists, Map<Integer, Long> begin) {
        return new TributaryException("delta table " + tablePath + (tableExists ? " has no batches of sink " + config.appId()
                : " does not exist") + ", but topic " + config.topic() + " starts at offsets " + begin + ": the records before them "
                + "were deleted after an earlier table committed them (the pipeline trims its topics, setting topic.trim). "
                + "Starting here would leave those rows out. Restore the table; or rebuild it from the input with a new "
                + "pipeline state (with the embedded broker: delete the state folder; with a Kafka cluster: delete the "
                + "pipeline's topics and consumer groups)");
    }
}
