package io.tributary.ingest.internal;

import io.tributary.kafka.SettledLog;
import io.tributary.kafka.TopicWait;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads the compacted ingest-log topic from its start to its last committed record
 * ({@link SettledLog#read}) and rebuilds the {@link IngestState}.
 */
public final class IngestLogReader {
    private IngestLogReader() {
    }

    public static IngestState read(Map<String, Object> clientProps, String topic) {
        IngestState state = new IngestState();
        SettledLog.read(clientProps, topic, "tributary-ingest-log-reader",
                () -> IngestErrors.noIngestLogTopic(topic, TopicWait.bound(clientProps).toSeconds()),
                "reading the ingest-log topic " + topic, r -> apply(r, state));
        return state;
    }

    private static void apply(ConsumerRecord<byte[], byte[]> r, IngestState state) {
        if (r.key() == null) {
            return;
        }
        String key = IngestLogCodec.pathOfKey(r.key());
        if (key.equals(IngestState.SCHEMA_KEY)) {
            state.setSchemaDdl(r.value() == null ? null : IngestLogCodec.schemaDdl(r.value()));
        } else if (key.equals(IngestState.STATE_KEY)) {
            if (r.value() != null) {
                IngestLogCodec.applyState(r.value(), state);
            }
        } else if (r.value() == null) {
            state.removeFile(key);
        } else {
            state.putFile(IngestLogCodec.parseFile(r.key(), r.value()));
        }
    }
}
