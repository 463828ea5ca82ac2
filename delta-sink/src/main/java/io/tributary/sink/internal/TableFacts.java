package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Snapshot;
import java.util.Map;
import java.util.Optional;

/** Facts about a snapshot that only Kernel's internal API gives: domain metadata and the protocol. */
public final class TableFacts {
    private TableFacts() {
    }

    /** Every active domain metadata, domain to configuration. */
    public static Map<String, String> domains(Snapshot snapshot) {
        return KernelInternals.domains(snapshot);
    }

    /** The protocol, e.g. {@code (1,7) readerFeatures [] writerFeatures [domainMetadata]}. */
    public static String protocol(Snapshot snapshot) {
        return KernelInternals.protocol(snapshot);
    }

    /** When the table was created ({@code metaData.createdTime}), if the log records it. */
    public static Optional<Long> createdTime(Snapshot snapshot) {
        return KernelInternals.createdTime(snapshot);
    }
}
