package io.tributary.sink.internal;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Collapses a batch's records in memory ({@link ColumnChanges}) up to {@code bound} keys at a time; each time the bound is
 * reached, the keys are written to a run in a {@link SpillFolder} and the same collector, emptied, takes the next ones in
 * the memory it already has (nothing of a full collector is left to the garbage collector). A batch that never
 * reaches the bound builds its {@link ColumnChanges} as before; one that did builds {@link SpilledChanges}.
 */
final class SpillingCollector implements BatchChanges.Collector {
    /** The runs a batch keeps before it merges them into one. */
    static final int MAX_RUNS = 32;
    private final KeyColumns keys;
    private final int orderIndex;
    private final int bound;
    private final SpillRows codec;
    private final List<Path> runs = new ArrayList<>();
    private ColumnChanges.Collector current;
    private Path folder;
    private int files; // the runs written, merged ones too: the next one's name

    SpillingCollector(KeyColumns keys, int orderIndex, int expectedRecords, int bound) {
        this.keys = keys;
        this.orderIndex = orderIndex;
        this.bound = bound;
        this.codec = SpillRows.of(keys.schema());
        this.current = new ColumnChanges.Collector(keys, orderIndex, Math.min(expectedRecords, bound));
    }

    /** Whether a batch of {@code keys} can spill: one integral key column ({@link ColumnChanges}) and no nested column. */
    static boolean fits(KeyColumns keys) {
        return ColumnChanges.fits(keys) && SpillRows.of(keys.schema()) != null;
    }

    @Override
    public void add(RecordOrigin origin, Object[] row) {
        current.add(origin, row);
        if (current.size() >= bound) {
            spill();
            current.clear();
        }
    }

    private void spill() {
        try {
            if (folder == null) {
                folder = SpillFolder.create();
            }
            Path run = folder.resolve("run-" + files++);
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
                current.writeRun(out, codec);
            }
            runs.add(run);
            if (runs.size() == MAX_RUNS) { // merged into one, so that a merge never holds more than MAX_RUNS files open
                Path merged = folder.resolve("run-" + files++);
                try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(merged), 1 << 16))) {
                    new SpilledChanges(runs, folder, codec, keys, orderIndex).writeMerged(out);
                }
                for (Path r : runs) {
                    Files.delete(r);
                }
                runs.clear();
                runs.add(merged);
            }
        } catch (IOException e) {
            discard();
            throw new UncheckedIOException("cannot spill an upsert batch's keys to " + folder + ": " + e.getMessage(), e);
        }
    }

    @Override
    public BatchChanges build() {
        if (runs.isEmpty()) {
            return current.build();
        }
        if (current.size() > 0) {
            spill();
        }
        current = null;
        return new SpilledChanges(runs, folder, codec, keys, orderIndex);
    }

    /** Deletes the runs written so far (a batch that fails before its commit). */
    void discard() {
        SpillFolder.delete(folder);
    }
}
