package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.sink.SinkOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollapseAheadTest {
    /** Records every record it is given, in order, and on which thread. */
    private static final class Recording implements KeyedBatch {
        final List<Object[]> rows = new ArrayList<>();
        final List<Long> offsets = new ArrayList<>();
        volatile String thread;
        volatile boolean discarded;
        final long failAt;

        Recording(long failAt) {
            this.failAt = failAt;
        }

        @Override
        public void add(RecordOrigin origin, Object[] row) {
            if (origin.offset() == failAt) {
                throw new IllegalArgumentException("bad record at offset " + failAt);
            }
            thread = Thread.currentThread().getName();
            offsets.add(origin.offset());
            rows.add(row);
        }

        @Override
        public CommitResult commit(SinkOffsets next, long sourceRows) {
            return null;
        }

        @Override
        public void discard() {
            discarded = true;
        }
    }

    private static final SinkOffsets NEXT = new SinkOffsets("app", "topic", null, Map.of(0, 1L));

    @Test
    void everyRecordReachesTheBatchInKafkaOrderBeforeTheCommit() {
        Recording batch = new Recording(-1);
        KeyedBatch ahead = KeyedBatch.collapsedAhead(batch, "test");
        int n = 10_000 + 17; // full chunks and a last partial one
        for (int i = 0; i < n; i++) {
            ahead.add(new RecordOrigin(0, i, 0, null), i % 3 == 0 ? null : new Object[] {i});
        }

        ahead.commit(NEXT, n);

        assertThat(batch.offsets).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(batch.offsets.get(i)).isEqualTo(i);
            assertThat(batch.rows.get(i)).isEqualTo(i % 3 == 0 ? null : new Object[] {i});
        }
        assertThat(batch.thread).isEqualTo("tributary-collapse-test");
    }

    @Test
    void aFailureOfTheCollapsingThreadFailsTheBatchWithItsError() {
        Recording batch = new Recording(5_000);
        KeyedBatch ahead = KeyedBatch.collapsedAhead(batch, "test");

        assertThatThrownBy(() -> {
            for (int i = 0; i < 100_000; i++) {
                ahead.add(new RecordOrigin(0, i, 0, null), new Object[] {i});
            }
            ahead.commit(NEXT, 100_000);
        }).isInstanceOf(IllegalArgumentException.class).hasMessage("bad record at offset 5000");
        ahead.discard();

        assertThat(batch.discarded).isTrue();
        assertThat(batch.offsets).hasSize(5_000);
    }
}
