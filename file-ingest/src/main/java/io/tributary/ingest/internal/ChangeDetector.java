package io.tributary.ingest.internal;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.IngestedFile;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether an ingested file differs on disk now. Size and modification time decide
 * first; when only the time moved, the content hash decides (a {@code touch} is no change).
 * Each changed file is logged once at WARN, in words that say what to do.
 */
public final class ChangeDetector {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeDetector.class);

    private final FileDiscovery discovery;
    /** Stats whose content hash matched the ingested one: not hashed again. */
    private final Map<String, FileStat> sameContent = new HashMap<>();
    /** The files already warned about: once per run, however often a file goes on changing. */
    private final Set<String> warned = new HashSet<>();

    public ChangeDetector(FileDiscovery discovery) {
        this.discovery = discovery;
    }

    /** The change, or null when the file on disk is still the one ingested. */
    public ChangedFile check(FileStat now, IngestedFile was) {
        String reason;
        if (now.size() != was.size()) {
            reason = "its size was " + was.size() + " bytes when ingested, now " + now.size();
        } else if (now.etag() != null && was.etag() != null) {
            if (now.etag().equals(was.etag())) {
                return null; // the same object: an ETag changes whenever an object is replaced
            }
            reason = "it was replaced: ETag " + was.etag() + " when ingested, now " + now.etag() + ", same size";
        } else if (now.mtimeMs() != was.mtimeMs()) {
            if (now.sameAs(sameContent.get(now.relPath()))) {
                return null;
            }
            String hash;
            try {
                hash = FilePublisher.sha256(discovery.open(now));
            } catch (IOException e) {
                return null; // unreadable now (e.g. being replaced); looked at again next time
            }
            if (hash.equals(was.sha256())) {
                sameContent.put(now.relPath(), now);
                return null;
            }
            reason = "its content changed, same size, modified " + Instant.ofEpochMilli(now.mtimeMs());
        } else {
            return null;
        }
        ChangedFile c = new ChangedFile(now.relPath(), was, now.size(), now.mtimeMs(), reason);
        if (warned.add(c.path())) {
            LOG.warn("file {}: changed after it was ingested in batch {} ({}); not read again. Spark's file source"
                            + " does not re-read a file either: write new data to a new file name",
                    discovery.display(now.relPath()), was.batchId(), reason);
        }
        return c;
    }
}
