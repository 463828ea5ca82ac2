package io.tributary.sink.internal;

import java.util.List;
import java.util.Map;

/**
 * The records of one batch read from a topic.
 *
 * @param rows the parsed data rows, markers excluded
 * @param start per partition, where the batch started reading
 * @param end per partition, the next offset to read after this batch (past commit markers)
 * @param markers watermark marker records skipped
 */
public record TopicBatch(List<Object[]> rows, Map<Integer, Long> start, Map<Integer, Long> end, long markers) {
}
