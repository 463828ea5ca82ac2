package io.tributary.source.internal;

import io.tributary.kafka.SettledLog;
import io.tributary.kafka.TopicWait;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the compacted progress topic from its start to its end ({@link SettledLog#read}) and
 * returns the last committed record for one table; a tombstone clears it.
 */
public final class ProgressLog {
    private ProgressLog() {
    }

    public static Optional<StoredProgress> read(Map<String, Object> clientProps, String topic, String key) {
        AtomicReference<byte[]> last = new AtomicReference<>(); // a tombstone clears it
        SettledLog.read(clientProps, topic, "tributary-delta-source-log-reader",
                () -> SourceErrors.noProgressTopic(topic, TopicWait.bound(clientProps).toSeconds()),
                "delta-source: reading progress topic " + topic, r -> {
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        last.set(r.value());
                    }
                });
        return Optional.ofNullable(last.get()).map(StoredProgress::parse);
    }
}
