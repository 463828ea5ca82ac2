package io.tributary.topology;

import io.tributary.topology.internal.CommitHook;
import io.tributary.topology.internal.DedupProcessor;
import io.tributary.topology.internal.Names;
import io.tributary.topology.internal.SinkWiring;
import io.tributary.topology.internal.SourceWiring;
import io.tributary.topology.internal.TopologyErrors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Spark's {@code dropDuplicates(keys)} and {@code dropDuplicatesWithinWatermark(keys)} ({@link DedupSpec}) as a
 * Kafka Streams topology (Processor API) over the pipeline's events topic, whose rows the source stage placed
 * by their keys (a key's rows share a partition) and whose batches end with the watermark markers
 * ({@link io.tributary.schema.Topics}).
 *
 * <p>Results topic: the rows kept, packed as they came ({@link io.tributary.schema.RowPack}, the events'
 * schema, the events record's headers), then each marker with the batch's counts, on the input partition
 * mod the results topic's partition count. State: the keys seen, each with the time the watermark evicts it
 * ({@code <application.id>-dedup-keys-changelog}), and the task's watermark and counters
 * ({@code -dedup-meta-changelog}).
 */
public final class Deduplication {
    /** The prefix of node and store names. */
    public static final String NAME = "dedup";

    private Deduplication() {
    }

    /** The topology; has no side effects. */
    public static Topology build(DedupSpec spec, String eventsTopic, String resultsTopic) {
        return build(spec, eventsTopic, resultsTopic, null);
    }

    /** As above, over a Kafka source's topics when {@code kafka} is given ({@link KafkaInput}). */
    static Topology build(DedupSpec spec, String eventsTopic, String resultsTopic, SourceWiring.Kafka kafka) {
        if (spec == null || eventsTopic == null || resultsTopic == null) {
            throw TopologyErrors.incompleteTopology();
        }
        Names names = new Names(NAME);
        Topology t = new Topology();
        String from = SourceWiring.source(t, names, eventsTopic, kafka);
        t.addProcessor(names.processor(), () -> new DedupProcessor(spec, names), from);
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(names.keysStore()),
                Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), names.processor());
        t.addStateStore(CommitHook.builder(names.commitHook()), names.processor());
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(names.metaStore()),
                Serdes.String(), Serdes.Long()).withCachingDisabled(), names.processor());
        SinkWiring.results(t, names, resultsTopic);
        return t;
    }
}
