package io.tributary.sink.internal;

import io.tributary.sink.SinkOffsets;
import java.util.Map;
import java.util.Optional;

/** Every row of the batch is added; nothing is removed (Spark's Delta sink, append mode). */
final class Append implements WriteMode {
    private final DeltaTableWriter writer;

    Append(DeltaTableWriter writer) {
        this.writer = writer;
    }

    @Override
    public CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next) {
        return writer.append(appId, batchId, batch.rows(), expectedStart, next);
    }

    @Override
    public Optional<AppendStream> open(String appId, long batchId, Map<Integer, Long> expectedStart) {
        return Optional.of(writer.openAppend(appId, batchId, expectedStart));
    }

    @Override
    public boolean keyed() {
        return false;
    }
}
