package io.tributary.sink.internal;

import java.util.List;
import java.util.Map;

/**
 * The records of one batch read from a topic.
 *
 * @param rows the parsed data rows, markers excluded; in a keyed read a tombstone (key, no value) is a null row
 * @param start per partition, where the batch started reading
 * @param end per partition, the next offset to read after this batch (past commit markers)
 * @param markers watermark marker records skipped
 * @param origins keyed reads only (else null): where each row came from, parallel to {@code rows}
 * @param rowCount the data rows read: {@code rows.size()}, unless they went to a row consumer and {@code rows} is empty
 */
public record TopicBatch(List<Object[]> rows, Map<Integer, Long> start, Map<Integer, Long> end, long markers,
                         List<RecordOrigin> origins, long rowCount) {
    public TopicBatch(List<Object[]> rows, Map<Integer, Long> start, Map<Integer, Long> end, long markers, List<RecordOrigin> origins) {
        this(rows, start, end, markers, origins, rows.size());
    }

    public TopicBatch(List<Object[]> rows, Map<Integer, Long> start, Map<Integer, Long> end, long markers) {
        this(rows, start, end, markers, null);
    }
}
