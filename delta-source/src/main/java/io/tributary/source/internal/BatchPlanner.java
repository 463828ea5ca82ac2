package io.tributary.source.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
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

    /**
     * The files of one batch and the position after them; {@code newSchema}: the batch stopped
     * before the commit at {@code end} that grows the table's schema (additive), and holds no file
     * (the stream first takes the new schema, then plans again); null otherwise.
     */
    public record Plan(SourcePosition start, SourcePosition end, List<DataFile> files, StructType newSchema) {
        public Plan(SourcePosition start, SourcePosition end, List<DataFile> files) {
            this(start, end, files, null);
        }

        public long bytes() {
            return files.stream().mapToLong(DataFile::size).sum();
        }
    }

    private final TableLog log;
    private final DeltaSourceConfig config;
    private Schema streamSchema;
    private final ChangeCommits changeCommits;

    public BatchPlanner(TableLog log, DeltaSourceConfig config, Snapshot sourceSnapshot) {
        this.log = log;
        this.config = config;
        this.streamSchema = KernelSchemas.fromKernel(log.tablePath(), sourceSnapshot.getSchema());
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
                if (grows(c)) {
                    // rows of the new schema start a batch of their own, read with it
                    SourcePosition before = chosen.isEmpty() ? pos : SourcePosition.commit(c.version());
                    return new Plan(from, before, chosen, chosen.isEmpty() ? c.newSchema().get() : null);
                }
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

    /** The stream reads with {@code schema} from now on (it took an additive change, or ignores its new columns). */
    public void streamSchema(StructType schema) {
        this.streamSchema = KernelSchemas.fromKernel(log.tablePath(), schema);
    }

    /**
     * True when commit {@code c} sets a schema with columns the stream's lacks (it added
     * columns); false when it sets none, or one the stream's schema reads (a restart already
     * reads the table's latest schema). A commit that drops, renames or retypes a column of the
     * schema before it stops the stream with Spark's {@code DELTA_SCHEMA_CHANGED_WITH_VERSION}.
     */
    private boolean grows(Commit c) {
        if (c.newSchema().isEmpty()) {
            return false;
        }
        Schema next;
        try {
            next = KernelSchemas.fromKernel(log.tablePath(), c.newSchema().get());
        } catch (RuntimeException e) {
            throw SourceErrors.incompatibleSchema(log.tablePath(), c.version(), streamSchema.toDdl(), describe(c.newSchema().get()),
                    e.getMessage(), config.progressTopic());
        }
        Schema before = c.version() == 0 ? null : schemaBefore(c.version());
        String lost = before == null ? null : SchemaChange.lost(before, next);
        if (lost != null) {
            throw SourceErrors.incompatibleSchema(log.tablePath(), c.version(), streamSchema.toDdl(), next.toDdl(), lost,
                    config.progressTopic());
        }
        SchemaChange forStream = SchemaChange.of(streamSchema, next);
        switch (forStream.kind()) {
            case READABLE -> {
                LOG.debug("delta-source {}: version {} sets a schema the stream reads ({})", log.tablePath(), c.version(), next.toDdl());
                return false;
            }
            case ADDITIVE -> {
                return true;
            }
            default -> throw SourceErrors.incompatibleSchema(log.tablePath(), c.version(), streamSchema.toDdl(), next.toDdl(),
                    forStream.reason(), config.progressTopic());
        }
    }

    /** The table's schema at the version before {@code version}; null when the log no longer holds it. */
    private Schema schemaBefore(long version) {
        try {
            return KernelSchemas.fromKernel(log.tablePath(), log.at(version - 1).getSchema());
        } catch (RuntimeException e) {
            LOG.debug("delta-source {}: no snapshot at version {} to compare the schema with: {}", log.tablePath(), version - 1, e.toString());
            return null;
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
