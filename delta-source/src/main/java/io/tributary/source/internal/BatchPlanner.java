package io.tributary.source.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelSchemas;
import io.tributary.source.DeltaSourceConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the files of the next batch, as Spark's Delta source plans one: from the current position,
 * the rest of the starting snapshot, then each later commit's data files in commit order, until
 * {@code maxFilesPerTrigger} files or {@code maxBytesPerTrigger} bytes (at least one file). Commits
 * that remove data are refused, skipped or read as a change feed according to the options
 * ({@link ChangeCommits}).
 */
public final class BatchPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(BatchPlanner.class);

    /** The files of one batch and the position after them. */
    public record Plan(SourcePosition start, SourcePosition end, List<DataFile> files) {
        public long bytes() {
            return files.stream().mapToLong(DataFile::size).sum();
        }
    }

    private final TableLog log;
    private final DeltaSourceConfig config;
    private final StructType sourceSchema;
    private final ChangeCommits changeCommits;

    public BatchPlanner(TableLog log, DeltaSourceConfig config, Snapshot sourceSnapshot) {
        this.log = log;
        this.config = config;
        this.sourceSchema = sourceSnapshot.getSchema();
        this.changeCommits = new ChangeCommits(log.tablePath(), sourceSnapshot.getPath(), config);
    }

    public Plan plan(SourcePosition from, long latestVersion) {
        Limits limits = new Limits(config.maxFilesPerTrigger(), config.maxBytesPerTrigger());
        List<DataFile> chosen = new ArrayList<>();
        SourcePosition pos = from;
        if (pos.isStartingVersion()) {
            Snapshot s = log.at(pos.reservoirVersion());
            List<DataFile> files = log.snapshotFiles(s, config.readChangeFeed() ? "insert" : null);
            pos = take(files, pos, chosen, limits);
            if (pos.isStartingVersion()) {
                return new Plan(from, pos, chosen);
            }
        }
        if (pos.reservoirVersion() > latestVersion) {
            return new Plan(from, pos, chosen);
        }
        try (CloseableIterator<Commit> commits = log.commits(pos.reservoirVersion(), latestVersion)) {
            while (commits.hasNext() && !limits.full()) {
                Commit c = commits.next();
                checkSchema(c);
                List<DataFile> files = changeCommits.filesOf(c);
                pos = take(files, pos, chosen, limits);
                if (pos.reservoirVersion() == c.version()) {
                    break; // the limit fell inside this commit's files
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta-source: cannot read the log of " + log.tablePath(), e);
        }
        return new Plan(from, pos, chosen);
    }

    /** Takes the files after {@code pos.index} of one version, within limits; the position after what it took. */
    private static SourcePosition take(List<DataFile> files, SourcePosition pos, List<DataFile> chosen, Limits limits) {
        long last = pos.index();
        for (DataFile f : files) {
            if (f.index() <= pos.index()) {
                continue;
            }
            if (limits.full()) {
                return new SourcePosition(pos.reservoirVersion(), last, pos.isStartingVersion());
            }
            chosen.add(f);
            limits.add(f.size());
            last = f.index();
        }
        return SourcePosition.commit(pos.reservoirVersion() + 1);
    }

    private void checkSchema(Commit c) {
        if (c.newSchema().isPresent() && !c.newSchema().get().equals(sourceSchema)) {
            throw SourceErrors.schemaChanged(log.tablePath(), c.version(),
                    KernelSchemas.fromKernel(log.tablePath(), sourceSchema).toDdl(), describe(c.newSchema().get()));
        }
        if (c.newSchema().isPresent()) {
            LOG.debug("delta-source {}: version {} rewrote the table metadata with the same schema", log.tablePath(), c.version());
        }
    }

    private String describe(StructType schema) {
        try {
            return KernelSchemas.fromKernel(log.tablePath(), schema).toDdl();
        } catch (RuntimeException e) {
            return schema.toString();
        }
    }

    /** maxFilesPerTrigger / maxBytesPerTrigger: full once either is reached (a soft limit, as in Spark). */
    private static final class Limits {
        private final int maxFiles;
        private final long maxBytes;
        private int files;
        private long bytes;

        Limits(int maxFiles, long maxBytes) {
            this.maxFiles = maxFiles;
            this.maxBytes = maxBytes;
        }

        boolean full() {
            return files >= maxFiles || (maxBytes > 0 && bytes >= maxBytes);
        }

        void add(long size) {
            files++;
            bytes += size;
        }
    }
}
