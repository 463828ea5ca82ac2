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
            return new TributaryException("delta table " + tablePath + " is written by the instances of pipeline sink " + config.appId()
                    + " on the Kafka cluster at " + s.cluster() + ", but this run's Kafka (" + bootstrap + ") holds another topic "
                    + config.topic() + " (" + ids + "): this process is not on the cluster its other instances use (without "
                    + "kafka.bootstrap.servers it runs an embedded broker of its own). Start it with kafka.bootstrap.servers: "
                    + s.cluster() + " and a continuous trigger to run as one of them; going on from this topic would write the "
                    + "table's rows a second time");
        }
        if (shared || s.cluster() != null) {
            return new TributaryException("topic " + config.topic() + " on the Kafka cluster at " + bootstrap + " was created anew since "
                    + "table " + tablePath + " recorded its last batch (" + lastBatch + " of sink " + config.appId() + "; " + ids
                    + "): the pipeline's topics were deleted or its cluster replaced. Going on would write the table's rows a "
                    + "second time. Restore the cluster's topics to go on exactly; or, with every instance of the pipeline "
                    + "stopped, write to a new table path");
        }
        return new TributaryException("the pipeline's state was lost: topic " + config.topic() + " was created anew since table "
                + tablePath + " recorded its last batch (" + lastBatch + " of sink " + config.appId() + "; " + ids
                + "), e.g. because the state folder holding the embedded broker was deleted. "
                + "Going on would read every input again and write its rows to the table a second time (what Spark does when "
                + "its checkpoint is deleted). Restore the state folder to go on exactly; or run with --reprocess to accept the "
                + "duplicates; or write to a new table path");
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
            return new TributaryException(problem + "Every instance of a pipeline writes the same table: if its other instances "
                    + "name another sink.delta.path, start this one with their spec. Otherwise restore the table; or rebuild it "
                    + "from the input as a new pipeline (another name, so other topics and groups, and a new table path)");
        }
        return new TributaryException(problem + "Restore the table; or rebuild it from the input with a new pipeline state (with "
                + "the embedded broker: delete the state folder; with a Kafka cluster, once no instance of the pipeline runs: "
                + "delete the pipeline's topics and consumer groups)");
    }
}
