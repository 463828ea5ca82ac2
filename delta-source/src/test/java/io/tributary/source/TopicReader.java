package io.tributary.source;

import io.tributary.kafka.SettledLog;
import io.tributary.schema.RowPack;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a whole topic as a user checks it: read_committed, from the beginning to the end offsets once
 * no transaction is open ({@code commitTransaction()} returns before the coordinator writes the markers);
 * a record of packed rows gives each row ({@link RowPack}).
 */
final class TopicReader {
    private TopicReader() {
    }

    static List<String> values(String bootstrap, String topic) {
        List<String> out = new ArrayList<>();
        SettledLog.read(Map.of("bootstrap.servers", bootstrap), topic, "test-topic-reader",
                () -> new TributaryException("topic " + topic + " does not exist"), "reading topic " + topic,
                r -> {
                    if (r.value() == null) {
                        out.add(null);
                    } else {
                        RowPack.forEachRow(r.value(), (b, off, len) -> out.add(new String(b, off, len, StandardCharsets.UTF_8)));
                    }
                });
        return out;
    }
}
