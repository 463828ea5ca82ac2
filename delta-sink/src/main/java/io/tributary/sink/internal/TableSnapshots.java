package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.tributary.delta.KernelEngines;
import java.util.Optional;

/**
 * Loading a table's latest snapshot, where "no table" is an ordinary answer; its transactions commit
 * through {@code KernelChangeData.committer()} (change data commits).
 */
public final class TableSnapshots {
    private TableSnapshots() {
    }

    public static Optional<Snapshot> latest(Engine engine, String path) {
        try {
            return Optional.of(TableManager.loadSnapshot(KernelEngines.tablePath(path))
                    .withCommitter(io.tributary.delta.kernel.KernelChangeData.committer()).build(engine));
        } catch (TableNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The snapshot at {@code version}; empty when there is no table; Kernel's refusal when the table has no such version. */
    public static Optional<Snapshot> at(Engine engine, String path, long version) {
        try {
            return Optional.of(TableManager.loadSnapshot(KernelEngines.tablePath(path)).atVersion(version).build(engine));
        } catch (TableNotFoundException e) {
            return Optional.empty();
        } catch (io.delta.kernel.exceptions.KernelException e) {
            throw SinkErrors.noSuchVersion(e); // Kernel names the versions there are
        }
    }
}
