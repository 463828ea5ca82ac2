package io.tributary.sink.internal;

import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkOffsets;
import java.util.Map;
import java.util.Optional;

/**
 * How a batch becomes one Delta commit: {@link Append}, {@link CopyOnWriteUpsert} or
 * {@link CompleteReplace}. Every mode writes Parquet through {@link DeltaTableWriter#writeFiles}
 * and commits {@code txn (appId, batchId)} with the sink's offsets, so a replayed batch writes nothing.
 */
public interface WriteMode {
    /**
     * Writes {@code batch} as batch {@code batchId} of {@code appId}.
     *
     * @param expectedStart the offsets the table must hold (empty: none yet)
     * @param next the offsets to store with the batch
     */
    CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next);

    /**
     * A stream that writes the batch's rows while they are read ({@link Append}); empty for modes
     * that need the whole batch first, which get it through {@link #write}.
     */
    default Optional<AppendStream> open(String appId, long batchId, Map<Integer, Long> expectedStart) {
        return Optional.empty();
    }

    /**
     * For keyed modes that collapse a batch by key: a batch that takes the records as they are read,
     * in Kafka order ({@link TopicReader#readKeyed}), and commits as {@link #write} does; empty for
     * the other modes, which get the whole batch through {@link #write}.
     *
     * @param expectedRecords about how many records the batch reads (a size hint)
     */
    default Optional<KeyedBatch> openKeyed(String appId, long batchId, Map<Integer, Long> expectedStart, int expectedRecords) {
        return Optional.empty();
    }

    /** True if the mode needs each record's origin and the topic's tombstones ({@link TopicReader}'s keyed read). */
    boolean keyed();

    /** The mode {@code config} asks for, writing through {@code writer}. */
    static WriteMode forConfig(SinkConfig config, DeltaTableWriter writer) {
        return switch (config.mode()) {
            case APPEND -> new Append(writer);
            case UPSERT -> config.changes().history() ? new HistoryUpsert(writer, new RewriteCommitter(writer), config,
                    System::currentTimeMillis)
                    : config.changes().active() ? new ChangeUpsert(writer, new RewriteCommitter(writer), config)
                    : new CopyOnWriteUpsert(writer, new RewriteCommitter(writer),
                    new KeyColumns(config.schema(), config.keys()), config.order(), config.rowsPerFile());
            case COMPLETE -> new CompleteReplace(writer, new RewriteCommitter(writer),
                    config.keys().isEmpty() ? null : new KeyColumns(config.schema(), config.keys()), config.rowsPerFile());
        };
    }
}
