package io.tributary.delta.kernel;

import io.delta.kernel.internal.TransactionImpl;
import io.delta.kernel.internal.snapshot.SnapshotManager;
import java.util.List;

/**
 * Kernel's internal classes whose warnings are known and harmless here, by logger name: the snapshot
 * manager on a table without a checkpoint, and the transaction's retry of a commit whose version
 * another writer took (the sink logs that in a line of its own). Named by class, so that a Kernel
 * upgrade that moves one breaks the compile here rather than letting its warnings through.
 */
public final class KernelLoggers {
    /** The logger names, for the logging setup to raise to ERROR. */
    public static final List<String> HARMLESS_WARNINGS = List.of(SnapshotManager.class.getName(), TransactionImpl.class.getName());

    private KernelLoggers() {
    }
}
