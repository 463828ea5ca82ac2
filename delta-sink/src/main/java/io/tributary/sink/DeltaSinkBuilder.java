package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import io.tributary.storage.Storage;
import java.util.Map;

/** Collects how a {@link DeltaSink} opens: its table's file system, whether it reprocesses, and the instance it is. */
public final class DeltaSinkBuilder {
    // read by DeltaSink's constructor
    final SinkConfig config;
    final Map<String, Object> kafkaClientProps;
    boolean reprocess;
    Storage storage = Storage.NONE;
    String instanceId;
    KafkaSubscription subscription;
    boolean availableNow;
    boolean continuous;

    DeltaSinkBuilder(SinkConfig config, Map<String, Object> kafkaClientProps) {
        this.config = config;
        this.kafkaClientProps = kafkaClientProps;
    }

    /**
     * A topic created anew since the table's last batch (the pipeline's state was lost) is read from
     * its beginning and its rows are appended again, as Spark does without its checkpoint, instead
     * of being refused.
     */
    public DeltaSinkBuilder reprocess(boolean reprocess) {
        this.reprocess = reprocess;
        return this;
    }

    /** The settings of the table's file system (object storage). */
    public DeltaSinkBuilder storage(Storage storage) {
        this.storage = storage == null ? Storage.NONE : storage;
        return this;
    }

    /**
     * This is instance {@code instanceId} of several that share the topic's partitions: it joins the
     * consumer group {@code config.appId()} as that (static) member and commits the partitions the
     * group gives it. Null (the default): the only one, reading every partition.
     */
    public DeltaSinkBuilder instanceId(String instanceId) {
        this.instanceId = instanceId;
        return this;
    }

    /**
     * The sink reads a Kafka source's topics (someone else's) as {@code subscription} says, instead
     * of the one topic of {@code config} (which then names the subscription: {@link KafkaSubscription#description()}).
     */
    public DeltaSinkBuilder subscription(KafkaSubscription subscription) {
        this.subscription = subscription;
        return this;
    }

    /**
     * With a {@link #subscription}: an availableNow run, whose batches read no further than the end
     * offsets its first batch saw, as Spark's availableNow, so it ends while producers go on writing.
     */
    public DeltaSinkBuilder availableNow(boolean availableNow) {
        this.availableNow = availableNow;
        return this;
    }

    /**
     * A continuous run, whose ingest writes the topic while the sink reads it: a batch takes the
     * transactions committed when it starts without waiting for the one the ingest opened since
     * (a Kafka source's topics are read as in every run).
     */
    public DeltaSinkBuilder continuous(boolean continuous) {
        this.continuous = continuous;
        return this;
    }

    /** Opens the table and the topic; see {@link DeltaSink#DeltaSink(SinkConfig, Map)}. */
    public DeltaSink build() {
        return new DeltaSink(this);
    }
}
