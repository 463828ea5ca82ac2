package io.tributary.sink;

import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.TableErrors;
import java.util.Map;

/** The errors with which a {@link DeltaSink} refuses to start rather than silently duplicate or leave out rows. */
final class SinkRefusals {
    private SinkRefusals() {
    }

    /** A sink whose instances share the topic's partitions cannot replace the whole table with each batch. */
    static void checkShareable(SinkConfig config) {
        if (config.mode() == SinkMode.COMPLETE && config.keys().isEmpty()) {
            throw TableErrors.completeNotShareable(config.appId());
        }
    }

    /**
     * The topic was created anew since the table's last batch: its rows would be written again.
     *
     * @param bootstrap this run's {@code bootstrap.servers}
     * @param shared whether this sink is one of several instances (which cannot take --reprocess)
     */
    static TributaryException lostState(SinkConfig config, String tablePath, SinkOffsets s, long lastBatch, String topicId,
                                        String bootstrap, boolean shared) {
        String ids = "topic id in the table " + s.topicId() + ", now " + topicId;
        if (s.cluster() != null && !s.cluster().equals(bootstrap)) {
            return TableErrors.onAnotherCluster(tablePath, config.appId(), s.cluster(), bootstrap, config.topic(), ids);
        }
        if (shared || s.cluster() != null) {
            return TableErrors.topicRecreated(config.topic(), bootstrap, tablePath, lastBatch, config.appId(), ids);
        }
        return TableErrors.stateLost(config.topic(), tablePath, lastBatch, config.appId(), ids);
    }

    /**
     * No table (or none of this sink's batches), but the topic was trimmed: the rows before its first offsets are gone.
     *
     * @param shared whether this sink is one of several instances: the others may be writing another table
     */
    static TributaryException trimmedTopic(SinkConfig config, String tablePath, boolean tableExists, Map<Integer, Long> begin,
                                           boolean shared) {
        String problem = "delta table " + tablePath + (tableExists ? " has no batches of sink " + config.appId()
                : " does not exist") + ", but topic " + config.topic() + " starts at offsets " + begin + ": the records before them "
                + "were deleted after an earlier table committed them (the pipeline trims its topics, setting topic.trim). "
                + "Starting here would leave those rows out. ";
        if (shared) {
            return TableErrors.trimmedTopicShared(problem);
        }
        return TableErrors.trimmedTopic(problem);
    }
}
