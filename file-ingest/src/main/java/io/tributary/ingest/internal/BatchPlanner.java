package io.tributary.ingest.internal;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the next batch's files: listed, not yet ingested, old enough ({@code fileMinAge}),
 * within {@code maxFilesPerTrigger} / {@code maxBytesPerTrigger}. Ingested files that differ
 * on disk are reported as changed, never chosen again.
 */
public final class BatchPlanner {
    /**
     * The files of the next batch, the ingested files that changed, the new files that wait for
     * {@code fileMinAge}, and how many new files the per-trigger limits leave for later batches.
     */
    public record Plan(List<FileStat> files, List<ChangedFile> changed, List<FileStat> heldBack, int leftForLater) {
    }

    private final IngestConfig config;
    private final FileDiscovery discovery;
    private final ChangeDetector changes;

    public BatchPlanner(IngestConfig config, FileDiscovery discovery) {
        this.config = config;
        this.discovery = discovery;
        this.changes = new ChangeDetector(discovery);
    }

    public Plan plan(IngestState state, long nowMs) {
        List<FileStat> fresh = new ArrayList<>();
        List<ChangedFile> changed = new ArrayList<>();
        List<FileStat> heldBack = new ArrayList<>();
        long newest = nowMs - config.fileMinAge().toMillis();
        for (FileStat f : discovery.list()) {
            IngestedFile was = state.file(f);
            if (was != null) {
                ChangedFile c = changes.check(f, was);
                if (c != null) {
                    changed.add(c);
                }
            } else if (!config.fileMinAge().isZero() && f.mtimeMs() > newest) {
                heldBack.add(f);
            } else {
                fresh.add(f);
            }
        }
        List<FileStat> chosen = FileDiscovery.select(fresh, config.maxFilesPerTrigger(), config.maxBytesPerTrigger());
        return new Plan(chosen, changed, heldBack, fresh.size() - chosen.size());
    }

    /** Ingested files that differ on disk now (for {@code checkpoint show}). */
    public List<ChangedFile> changedFiles(IngestState state) {
        List<ChangedFile> changed = new ArrayList<>();
        for (FileStat f : discovery.list()) {
            IngestedFile was = state.file(f);
            if (was != null) {
                ChangedFile c = changes.check(f, was);
                if (c != null) {
                    changed.add(c);
                }
            }
        }
        return changed;
    }
}
