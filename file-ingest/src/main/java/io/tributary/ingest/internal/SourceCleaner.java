package io.tributary.ingest.internal;

import io.tributary.ingest.CleanSource;
import io.tributary.ingest.IngestedFile;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link CleanSource} to files whose batch has committed: the batch's own files right
 * after the commit, and at the first batch of a run the ingested files a run that died left
 * behind. Only a file still as it was read (same size and modification time) is touched: one
 * rewritten since stays, and is reported as changed. A file that cannot be cleaned is logged
 * and left for the next start; it never fails a batch.
 */
public final class SourceCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(SourceCleaner.class);

    private final CleanSource policy;
    private final FileDiscovery discovery;

    public SourceCleaner(CleanSource policy, FileDiscovery discovery) {
        this.policy = policy;
        this.discovery = discovery;
    }

    public boolean isOff() {
        return policy == CleanSource.OFF;
    }

    /** Cleans the files of a batch that has just committed; the number cleaned. */
    public int clean(List<FileStat> committed) {
        int n = 0;
        for (FileStat f : committed) {
            if (f.sameAs(discovery.current(f)) && cleanOne(f)) {
                n++;
            }
        }
        return n;
    }

    /** Cleans the ingested files still in the input folder, unchanged (left by a run that died); the number cleaned. */
    public int cleanLeftovers(IngestState state) {
        if (isOff()) {
            return 0;
        }
        List<FileStat> present;
        try {
            present = discovery.list();
        } catch (TributaryException e) {
            return 0; // no input folder: nothing left to clean
        }
        int n = 0;
        for (FileStat f : present) {
            IngestedFile was = state.file(f);
            if (was != null && was.size() == f.size() && was.mtimeMs() == f.mtimeMs() && cleanOne(f)) {
                n++;
            }
        }
        if (n > 0) {
            LOG.info("cleanSource {}: {} file(s) published by an earlier run that stopped before cleaning them", policy.name(), n);
        }
        return n;
    }

    /**
     * Of the ingested files, those no longer in the input folder (archived or deleted; also any
     * a user removed) and those still there unchanged, which the next start cleans. A file
     * rewritten since it was ingested is in neither: it stays and is reported as changed.
     */
    public record Tally(int cleaned, int waiting) {
    }

    /** Counts what {@link Tally} says; with {@code cleanSource: off}, or no input folder, nothing is counted. */
    public Tally tally(IngestState state) {
        if (isOff()) {
            return new Tally(0, 0);
        }
        java.util.Map<String, FileStat> present = new java.util.HashMap<>();
        try {
            for (FileStat f : discovery.list()) {
                present.put(f.relPath(), f);
                String lossy = FileNames.lossyName(f.path(), f.relPath());
                if (lossy != null) {
                    present.putIfAbsent(lossy, f); // the name an earlier version recorded it under
                }
            }
        } catch (TributaryException e) {
            return new Tally(0, 0);
        }
        int cleaned = 0;
        int waiting = 0;
        for (IngestedFile was : state.files()) {
            FileStat f = present.get(was.path());
            if (f == null) {
                cleaned++;
            } else if (was.size() == f.size() && was.mtimeMs() == f.mtimeMs()) {
                waiting++;
            }
        }
        return new Tally(cleaned, waiting);
    }

    private boolean cleanOne(FileStat f) {
        try {
            String done = discovery.clean(f, policy);
            if (done != null) {
                LOG.info("file {}: {} (cleanSource {})", discovery.display(f.relPath()), done, policy.name());
                return true;
            }
        } catch (IOException e) {
            LOG.warn("file {}: published, but cleanSource {} failed ({}); the file stays and the next start tries again",
                    discovery.display(f.relPath()), policy.name(), e.toString());
        }
        return false;
    }
}
