package io.tributary.service.internal;

import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.sink.DeltaSink;
import io.tributary.sink.maintenance.AutoOptimize;
import java.util.Optional;

/** The sink stage: the sink, and its background compaction after every N commits ({@code sink.delta.optimizeEvery}). */
record SinkStage(DeltaSink sink, AutoOptimize optimize) implements PipelineStage {
    @Override
    public String stageName() {
        return sink.stageName();
    }

    /** A batch of the sink; a batch already in the table is no commit. */
    @Override
    public Optional<Progress> runBatch() {
        Optional<Progress> progress = sink.runBatch();
        progress.filter(p -> p.sink() != null && p.sink().numOutputRows() > 0).ifPresent(p -> optimize.afterCommit());
        return progress;
    }

    @Override
    public Optional<Progress> idleProgress() {
        return sink.idleProgress();
    }

    @Override
    public Optional<StageShare> workShare() {
        return sink.workShare();
    }

    @Override
    public void close() {
        optimize.close();
        sink.close();
    }
}
