package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.TableCommit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Instances of one sink that share the topic's partitions commit to one table: each commits its
 * own partitions' rows and offsets; commits of different partitions both land, in either order
 * and concurrently; a batch of a partition another instance committed since it started is refused.
 */
class SharedOffsetsTest {
    private static final String SINK = "tributary-shared-sink";
    private static final long NONE = OffsetFence.NONE;

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private String table() {
        return dir.resolve("t").toString();
    }

    /** A writer of instance {@code instance}: its own engine and writer, as another process has. */
    private DeltaTableWriter instance() {
        DeltaTableWriter w = new DeltaTableWriter(KernelEngines.create(), table(), SCHEMA, Map.of());
        w.shareOffsets(SINK);
        return w;
    }

    private static SinkOffsets next(Map<Integer, Long> offsets) {
        return new SinkOffsets(SINK, "events", "topic-1", offsets);
    }

    private static List<Object[]> rows(int from, int n) {
        List<Object[]> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(r(i, "u" + i, i));
        }
        return out;
    }

    private Map<Integer, Long> tableOffsets() {
        return DeltaTables.sinkOffsets(table()).orElseThrow().offsets();
    }

    private List<Integer> ids() {
        List<Integer> out = new ArrayList<>();
        DeltaTables.readRows(table()).forEach(r -> out.add((Integer) r[0]));
        out.sort(null);
        return out;
    }

    @Test
    void eachInstanceCommitsItsOwnPartitionsAndTheTableHoldsTheOffsetsOfAll() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        assertThat(a.append(SINK + "@a", 0, rows(0, 3), Map.of(0, NONE, 1, NONE), next(Map.of(0, 2L, 1, 1L))).committed()).isTrue();
        assertThat(b.append(SINK + "@b", 0, rows(10, 2), Map.of(2, NONE), next(Map.of(2, 2L))).committed()).isTrue();
        assertThat(a.append(SINK + "@a", 1, rows(3, 1), Map.of(0, 2L, 1, 1L), next(Map.of(0, 3L, 1, 1L))).committed()).isTrue();

        assertThat(tableOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 3L, 1, 1L, 2, 2L));
        assertThat(ids()).containsExactly(0, 1, 2, 3, 10, 11);
        assertThat(DeltaTables.history(table())).extracting(TableCommit::txnAppId)
                .containsExactly(SINK + "@a", SINK + "@b", SINK + "@a");
    }

    @Test
    void aBatchOfAPartitionAnotherInstanceCommittedSinceIsRefusedAndLeavesNothing() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        a.append(SINK + "@a", 0, rows(0, 2), Map.of(0, NONE), next(Map.of(0, 2L)));
        // b took partition 0 over and committed it; a, paused meanwhile, still holds a batch that starts at 2
        b.append(SINK + "@b", 0, rows(2, 3), Map.of(0, 2L), next(Map.of(0, 5L)));

        assertThatThrownBy(() -> a.append(SINK + "@a", 1, rows(2, 2), Map.of(0, 2L), next(Map.of(0, 4L))))
                .isInstanceOf(BatchSuperseded.class).hasMessageContaining("partition(s) [0] moved on to offsets {0=5}");
        assertThat(ids()).containsExactly(0, 1, 2, 3, 4);
        assertThat(tableOffsets()).containsExactly(Map.entry(0, 5L));
    }

    /** A sink of several topics: the offsets of instance a and b carry their topic-partitions' numbers. */
    private static SinkOffsets numbered(Map<Integer, Long> offsets, Map<Integer, org.apache.kafka.common.TopicPartition> sources) {
        return new SinkOffsets(SINK, "orders,refunds", null, offsets, null, sources);
    }

    @Test
    void instancesOfASinkOfSeveralTopicsKeepOneNumberingAndABatchNumberedOtherwiseIsRefused() {
        var orders0 = new org.apache.kafka.common.TopicPartition("orders", 0);
        var orders1 = new org.apache.kafka.common.TopicPartition("orders", 1);
        var refunds0 = new org.apache.kafka.common.TopicPartition("refunds", 0);
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        a.append(SINK + "@a", 0, rows(0, 2), Map.of(0, NONE), numbered(Map.of(0, 2L), Map.of(0, orders0, 1, orders1)));
        b.append(SINK + "@b", 0, rows(10, 2), Map.of(1, NONE), numbered(Map.of(1, 2L), Map.of(0, orders0, 1, orders1, 2, refunds0)));
        // a numbered refunds:0 as 1 (it had not seen orders:1): refused, however its offsets stand
        assertThatThrownBy(() -> a.append(SINK + "@a", 1, rows(20, 2), Map.of(0, 2L, 1, 2L),
                numbered(Map.of(0, 3L, 1, 3L), Map.of(0, orders0, 1, refunds0))))
                .isInstanceOf(BatchSuperseded.class).hasMessageContaining("1 for refunds-0, the table: 1 for orders-1");

        SinkOffsets stored = DeltaTables.sinkOffsets(table()).orElseThrow();
        assertThat(stored.sources()).isEqualTo(Map.of(0, orders0, 1, orders1, 2, refunds0));
        assertThat(stored.sparkJson()).isEqualTo(Map.of("orders", Map.of("0", 2L, "1", 2L)));
        assertThat(ids()).containsExactly(0, 1, 10, 11);
    }

    /** Both streams are opened on the same version; the second to commit loses that version and goes on top of the first. */
    @Test
    void concurrentCommitsOfDifferentPartitionsBothLand() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        a.append(SINK + "@a", 0, rows(0, 1), Map.of(0, NONE, 1, NONE), next(Map.of(0, 1L, 1, 0L)));
        try (AppendStream sa = a.openAppend(SINK + "@a", 1, Map.of(0, 1L));
             AppendStream sb = b.openAppend(SINK + "@b", 0, Map.of(1, 0L))) {
            rows(1, 5).forEach(sa::add);
            rows(100, 5).forEach(sb::add);
            assertThat(sa.commit(next(Map.of(0, 6L))).version()).isEqualTo(1);
            assertThat(sb.commit(next(Map.of(1, 5L))).version()).isEqualTo(2);
        }
        assertThat(tableOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 6L, 1, 5L));
        assertThat(ids()).hasSize(11).contains(0, 5, 100, 104);
    }

    @Test
    void concurrentCommitsOfOnePartitionLandOnce() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        a.append(SINK + "@a", 0, rows(0, 1), Map.of(0, NONE), next(Map.of(0, 1L)));
        try (AppendStream sa = a.openAppend(SINK + "@a", 1, Map.of(0, 1L));
             AppendStream sb = b.openAppend(SINK + "@b", 0, Map.of(0, 1L))) {
            rows(1, 3).forEach(sa::add);
            rows(1, 3).forEach(sb::add);
            sa.commit(next(Map.of(0, 4L)));
            assertThatThrownBy(() -> sb.commit(next(Map.of(0, 4L)))).isInstanceOf(BatchSuperseded.class);
        }
        assertThat(ids()).containsExactly(0, 1, 2, 3);
    }

    /**
     * Instances committing at the same moments, each with its own engine as separate processes
     * have: every batch lands in a version of its own, and the table holds every row and offset.
     */
    @Test
    void instancesCommittingAtOnceEachGetAVersionOfTheirOwnAndLoseNoBatch() throws Exception {
        int instances = 4;
        int batches = 20;
        instance().append(SINK + "@setup", 0, rows(1000, 1), Map.of(99, NONE), next(Map.of(99, 1L)));
        CyclicBarrier together = new CyclicBarrier(instances);
        ExecutorService pool = Executors.newFixedThreadPool(instances);
        List<Future<List<Long>>> versions = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            int p = i;
            versions.add(pool.submit(() -> {
                DeltaTableWriter w = instance();
                List<Long> out = new ArrayList<>();
                try {
                    for (int b = 0; b < batches; b++) {
                        together.await();
                        CommitResult r = w.append(SINK + "@" + p, b, rows(p * 100 + b * 2, 2), Map.of(p, b == 0 ? NONE : b * 2L),
                                next(Map.of(p, b * 2L + 2)));
                        assertThat(r.committed()).isTrue();
                        out.add(r.version());
                    }
                } catch (RuntimeException | Error e) {
                    together.reset(); // the others stop waiting for this one
                    throw e;
                }
                return out;
            }));
        }
        List<Long> all = new ArrayList<>();
        try {
            for (var f : versions) {
                all.addAll(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(all).doesNotHaveDuplicates().hasSize(instances * batches);
        List<Integer> expected = new ArrayList<>(List.of(1000));
        Map<Integer, Long> offsets = new HashMap<>(Map.of(99, 1L));
        for (int p = 0; p < instances; p++) {
            for (int id = p * 100; id < p * 100 + batches * 2; id++) {
                expected.add(id);
            }
            offsets.put(p, batches * 2L);
        }
        expected.sort(null);
        assertThat(ids()).containsExactlyElementsOf(expected);
        assertThat(tableOffsets()).containsExactlyInAnyOrderEntriesOf(offsets);
    }

    /** Two instances create the table at once: one creates it, the other's batch is read again, never lost or doubled. */
    @Test
    void theInstanceThatLosesTheTablesCreationIsToldToReadItsBatchAgain() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        try (AppendStream sa = a.openAppend(SINK + "@a", 0, Map.of(0, NONE));
             AppendStream sb = b.openAppend(SINK + "@b", 0, Map.of(1, NONE))) {
            rows(0, 2).forEach(sa::add);
            rows(100, 2).forEach(sb::add);
            sa.commit(next(Map.of(0, 2L)));
            assertThatThrownBy(() -> sb.commit(next(Map.of(1, 2L)))).isInstanceOf(BatchSuperseded.class);
        }
        b.append(SINK + "@b", 0, rows(100, 2), Map.of(1, NONE), next(Map.of(1, 2L)));
        assertThat(ids()).containsExactly(0, 1, 100, 101);
        assertThat(tableOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 2L, 1, 2L));
    }

    /** The table created by another instance between a batch's look at the table (none) and the start of its commit. */
    @Test
    void aTableCreatedByAnotherInstanceAfterTheBatchLookedIsReadAgain() {
        DeltaTableWriter a = instance();
        DeltaTableWriter b = instance();
        a.append(SINK + "@a", 0, rows(0, 1), Map.of(0, NONE), next(Map.of(0, 1L)));
        assertThatThrownBy(() -> b.build(java.util.Optional.empty(), SINK + "@b", 0, 0))
                .isInstanceOf(BatchSuperseded.class).hasMessageContaining("was created by another instance");
    }

    /**
     * Upserts of keys of different partitions that sit in one file: both instances rewrite the
     * file; the second notices the first's rewrite and plans again, so neither update is lost.
     */
    @Test
    void aFileTwoInstancesRewriteIsPlannedAgainAndNoUpdateIsLost() {
        DeltaTableWriter setup = instance();
        setup.append(SINK + "@setup", 0, List.of(r(1, "a", 1), r(2, "b", 2)), Map.of(0, NONE, 1, NONE), next(Map.of(0, 1L, 1, 1L)));
        int[] replanned = {0};
        DeltaTableWriter wa = instance();
        DeltaTableWriter wb = instance();
        CopyOnWriteUpsert ub = new CopyOnWriteUpsert(wb, new RewriteCommitter(wb), new KeyColumns(SCHEMA, List.of("id")), null, 10);
        CopyOnWriteUpsert ua = new CopyOnWriteUpsert(wa, new RewriteCommitter(wa, attempt -> {
            if (attempt == 1) { // b rewrites the same file between a's plan and a's commit
                ub.write(SINK + "@b", 0, batchOn(1, r(2, "b2", 20)), Map.of(1, 1L), next(Map.of(1, 2L)));
            } else {
                replanned[0]++;
            }
        }), new KeyColumns(SCHEMA, List.of("id")), null, 10);
        CommitResult r = ua.write(SINK + "@a", 0, batchOn(0, r(1, "a2", 10)), Map.of(0, 1L), next(Map.of(0, 2L)));

        assertThat(r.metrics()).containsEntry("replans", 1);
        assertThat(replanned[0]).isEqualTo(1);
        List<String> rows = new ArrayList<>();
        DeltaTables.readRows(table()).forEach(x -> rows.add(x[0] + ":" + x[1]));
        assertThat(rows).containsExactlyInAnyOrder("1:a2", "2:b2");
        assertThat(tableOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 2L, 1, 2L));
    }

    private static TopicBatch batchOn(int partition, Object[] row) {
        return new TopicBatch(List.<Object[]>of(row), Map.of(), Map.of(), 0,
                List.of(new RecordOrigin(partition, 1, 1000, null)));
    }

}
