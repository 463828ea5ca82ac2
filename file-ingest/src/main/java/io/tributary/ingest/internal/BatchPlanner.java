package io.tributary.ingest.internal;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chooses the next batch's files: listed, not yet ingested, old enough ({@code fileMinAge}) or,
 * without it, settled ({@code fileSettleTime}: the same size and modification time at two looks
 * that far apart, where files grow in place), within {@code maxFilesPerTrigger} /
 * {@code maxBytesPerTrigger}. Ingested files that differ on disk are reported as changed, never
 * chosen again. A file modified before the files the state forgot ({@code maxFileAge}) is not
 * read: most such files were ingested and forgotten, and Spark's file source ignores the others too.
 */
public final class BatchPlanner {
    /**
     * The files of the next batch, the ingested files that changed, the new files that wait for
     * {@code fileMinAge}, the new files still being written (not settled), and how many new files
     * the per-trigger limits leave for later batches.
     */
    public record Plan(List<FileStat> files, List<ChangedFile> changed, List<FileStat> heldBack, List<FileStat> settling,
                       int leftForLater) {
        /** A plan of no files: a no-data batch's. */
        public static final Plan NONE = new Plan(List.of(), List.of(), List.of(), List.of(), 0);

        /** True when every new file listed is in this batch: none waits for a later one. */
        public boolean takesAll() {
            return leftForLater == 0 && heldBack.isEmpty() && settling.isEmpty();
        }
    }

    private final IngestConfig config;
    private final FileDiscovery discovery;
    private final ChangeDetector changes;
    /** Null when files are taken at first sight: {@code fileMinAge} decides, object storage, or {@code fileSettleTime} 0. */
    private final Settling settling;
    /** Bounded runs: the files a plan already waited for; a file still changing then is left to a later run. */
    private final Set<String> waitedFor = new HashSet<>();

    public BatchPlanner(IngestConfig config, FileDiscovery discovery) {
        this.config = config;
        this.discovery = discovery;
        this.changes = new ChangeDetector(discovery);
        this.settling = config.fileMinAge().isZero() && !config.fileSettleTime().isZero() && discovery.growsInPlace()
                ? new Settling(config.fileSettleTime().toMillis(), discovery.sharesOurClock(), discovery::movedInAfterWritten) : null;
    }

    /** The next batch's plan at {@code nowMs}, taking the files that have settled by then. */
    public Plan plan(IngestState state, long nowMs) {
        return plan(state, nowMs, false);
    }

    /**
     * The next batch's plan at {@code nowMs}. With {@code waitToSettle} (a bounded run, which has no
     * later trigger to take them): new files not settled yet, and not waited for before in this run,
     * are looked at again once {@code fileSettleTime} has passed, so that a file written whole is
     * taken; one still changing then is held back for a later run.
     */
    public Plan plan(IngestState state, long nowMs, boolean waitToSettle) {
        List<FileStat> fresh = new ArrayList<>();
        List<ChangedFile> changed = new ArrayList<>();
        List<FileStat> heldBack = new ArrayList<>();
        List<FileStat> unsettled = new ArrayList<>();
        long newest = nowMs - config.fileMinAge().toMillis();
        for (FileStat f : discovery.list()) {
            IngestedFile was = state.file(f);
            if (was != null) {
                ChangedFile c = changes.check(f, was);
                if (c != null) {
                    changed.add(c);
                }
            } else if (state.tooOld(f)) {
                continue; // ingested and forgotten, or as old: not new
            } else if (!config.fileMinAge().isZero() && f.mtimeMs() > newest) {
                heldBack.add(f);
            } else if (settling != null && !settling.settled(f, nowMs)) {
                unsettled.add(f);
            } else {
                fresh.add(f);
            }
        }
        if (waitToSettle && settling != null && unsettled.stream().anyMatch(f -> !waitedFor.contains(f.relPath()))) {
            unsettled = lookAgain(unsettled, fresh, nowMs);
        }
        if (settling != null) {
            Set<String> waiting = new HashSet<>(); // every new file: one the limits leave for later stays settled
            fresh.forEach(f -> waiting.add(f.relPath()));
            unsettled.forEach(f -> waiting.add(f.relPath()));
            settling.retain(waiting);
        }
        List<FileStat> chosen = FileDiscovery.select(fresh, config.maxFilesPerTrigger(), config.maxBytesPerTrigger());
        return new Plan(chosen, changed, heldBack, unsettled, fresh.size() - chosen.size());
    }

    /**
     * Waits until the files not yet waited for may have settled, then looks at every unsettled file
     * again: those that held still join {@code fresh} (in batch order); the others, still changing, are returned.
     */
    private List<FileStat> lookAgain(List<FileStat> unsettled, List<FileStat> fresh, long nowMs) {
        long waitMs = 0;
        for (FileStat f : unsettled) {
            if (waitedFor.add(f.relPath())) {
                waitMs = Math.max(waitMs, settling.waitMs(f, nowMs));
            }
        }
        try {
            Thread.sleep(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping: the files wait for a later run
            return unsettled;
        }
        long thenMs = nowMs + waitMs;
        List<FileStat> still = new ArrayList<>();
        for (FileStat f : unsettled) {
            FileStat now = discovery.current(f);
            if (now == null) {
                continue; // gone
            }
            if (settling.settled(now, thenMs)) {
                fresh.add(now);
            } else {
                still.add(now);
            }
        }
        fresh.sort(FileDiscovery.ORDER);
        return still;
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
