package io.tributary.topology.internal;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;

/** Adds the results sink: keys carry their input partition, which picks the results partition. */
public final class SinkWiring {
    private SinkWiring() {
    }

    public static void results(Topology t, Names names, String resultsTopic) {
        t.addSink(names.resultsSink(), resultsTopic, ResultKey.SERIALIZER, new ByteArraySerializer(),
                ResultKey.PARTITIONER, names.processor());
    }
}
