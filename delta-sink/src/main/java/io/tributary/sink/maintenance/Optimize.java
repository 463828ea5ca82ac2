package io.tributary.sink.maintenance;

import io.tributary.delta.kernel.KernelInternals;
import io.tributary.delta.kernel.KernelTransactions;
import io.delta.kernel.Operation;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.delta.kernel.utils.CloseableIterable;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.Compaction;
import io.tributary.sink.internal.PostCommitHooks;
import io.tributary.sink.internal.TableFacts;
import io.tributary.sink.internal.TableFile;
import io.tributary.sink.internal.TableSnapshots;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's {@code OPTIMIZE} (bin-packing compaction) through Kernel: in each partition, files smaller
 * than half the target size are packed into groups of about the target size and each group is
 * rewritten as new files, all in ONE commit whose removes and adds have {@code dataChange=false}, so
 * the rows never change and streaming readers (Spark, the delta source) skip it.
 *
 * <p>Concurrency: a concurrent append (the sink) is rebased by Kernel and keeps its files. A
 * concurrent commit that removed a file being compacted makes Kernel's conflict check fail this
 * commit (delete-delete); the compaction then deletes the files it wrote, plans again on the new
 * snapshot and redoes the work, up to {@link OptimizeOptions#maxAttempts()} times.
 *
 * <p>The commit's operation is Kernel's {@code Manual Update} (Kernel cannot write {@code OPTIMIZE});
 * its {@code engineInfo} ends in {@value #ENGINE_INFO}.
 */
public final class Optimize {
    private static final Logger LOG = LoggerFactory.getLogger(Optimize.class);
    static final String ENGINE_INFO = "Tributary-0.1.0 OPTIMIZE";
    /** Commits of one rewrite on top of other writers' commits before it is planned again. */
    static final int MAX_COMMIT_TRIES = 10;

    private final String tablePath;
    private final OptimizeOptions options;
    private final Engine engine;
    private IntConsumer beforeCommit = attempt -> { };

    public Optimize(String tablePath, OptimizeOptions options) {
        this.tablePath = KernelEngines.tablePath(tablePath);
        this.options = options;
        this.engine = KernelEngines.withTargetFileSize(options.targetFileSize(), options.storage());
    }

    /** Compacts {@code tablePath} with {@code options}. */
    public static OptimizeResult run(String tablePath, OptimizeOptions options) {
        return new Optimize(tablePath, options).run();
    }

    /** For tests: runs before each commit attempt (e.g. a concurrent commit), with the attempt number from 1. */
    Optimize beforeCommit(IntConsumer hook) {
        this.beforeCommit = hook;
        return this;
    }

    /**
     * Plans, rewrites and commits; returns without a commit when no partition has two or more small files.
     *
     * @throws TributaryException if there is no table, {@code where} is not a partition filter, or every attempt met a conflicting commit
     */
    public OptimizeResult run() {
        for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
            Snapshot snapshot = TableSnapshots.latest(engine, tablePath).orElseThrow(() -> MaintenanceErrors.optimizeNoTable(tablePath));
            PartitionFilter filter = PartitionFilter.parse(options.where(), snapshot.getPartitionColumnNames());
            Scan scan = snapshot.getScanBuilder().build();
            List<TableFile> files = TableFile.listWithStatistics(engine, snapshot, scan).stream().filter(f -> filter.matches(f.partitionValues())).toList();
            Map<Map<String, String>, List<List<TableFile>>> plan = plan(files);
            if (plan.isEmpty()) {
                LOG.info("optimize {}: nothing to compact at version {} ({} files)", tablePath, snapshot.getVersion(), files.size());
                return new OptimizeResult(tablePath, -1, attempt, 0, files.size(), 0, 0, 0, 0);
            }
            Transaction txn = newTransaction(snapshot);
            Compaction compaction = new Compaction(engine, snapshot, scan, options.targetFileSize());
            List<Row> actions = new ArrayList<>();
            List<String> written = new ArrayList<>();
            List<TableFile> compacted = new ArrayList<>();
            long bytesAdded = 0;
            try {
                for (Map.Entry<Map<String, String>, List<List<TableFile>>> partition : plan.entrySet()) {
                    for (List<TableFile> bin : partition.getValue()) {
                        Compaction.Rewrite r = compaction.rewrite(txn, partition.getKey(), bin);
                        actions.addAll(r.actions());
                        written.addAll(r.written());
                        compacted.addAll(bin);
                        bytesAdded += r.bytesWritten();
                    }
                }
                beforeCommit.accept(attempt);
                long version = commit(snapshot, txn, actions, compacted, written);
                if (version < 0) {
                    deleteQuietly(written);
                    continue;
                }
                OptimizeResult done = new OptimizeResult(tablePath, version, attempt, plan.size(), files.size(),
                        compacted.size(), compacted.stream().mapToLong(TableFile::size).sum(), written.size(), bytesAdded);
                LOG.info("{}", done.summary());
                return done;
            } catch (RuntimeException e) {
                deleteQuietly(written);
                throw e;
            }
        }
        throw MaintenanceErrors.optimizeAttemptsExhausted(tablePath, options.maxAttempts());
    }

    /**
     * A transaction that fails at once when another commit took its version, instead of Kernel's retry (which logs
     * the conflict as a warning). A table with CHECK constraints or invariants, which Kernel alone refuses to write,
     * is compacted all the same: the rewrite adds no row that is not in the table already.
     */
    private Transaction newTransaction(Snapshot snapshot) {
        return KernelTransactions.buildCheckedByCaller(snapshot,
                s -> s.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).withMaxRetries(0).build(engine));
    }

    /**
     * Commits the compaction. When other commits land first (a sink appending), and none of them
     * removed or changed a compacted file or the table's schema, protocol or properties, the same
     * actions are committed on top of them, as Kernel's own conflict resolution would; otherwise
     * returns -1 and the compaction is planned again. Returns the version committed (post-commit hooks run).
     */
    private long commit(Snapshot read, Transaction txn, List<Row> actions, List<TableFile> compacted,
                                                     List<String> written) {
        Transaction current = txn;
        for (int tries = 1; ; tries++) {
            try {
                TransactionCommitResult result = current.commit(engine, CloseableIterable.inMemoryIterable(
                        KernelInternals.closeable(actions.iterator())));
                PostCommitHooks.run(engine, tablePath, result);
                return result.getVersion();
            } catch (MaxCommitRetryLimitReachedException | CommitStateUnknownException e) {
                Snapshot latest = TableSnapshots.latest(engine, tablePath).orElseThrow(() -> MaintenanceErrors.tableDisappeared(tablePath));
                Set<String> live = new HashSet<>();
                TableFile.list(engine, latest).forEach(f -> live.add(pathOf(f.absolutePath())));
                if (!written.isEmpty() && written.stream().allMatch(w -> live.contains(pathOf(w)))) {
                    return latest.getVersion(); // the commit landed though Kernel could not tell
                }
                Optional<String> conflict = conflict(read, latest, compacted);
                if (conflict.isPresent() || tries >= MAX_COMMIT_TRIES) {
                    LOG.info("optimize {}: the table changed at version {} during the rewrite ({}); deleting the {} new files and planning again",
                            tablePath, latest.getVersion(), conflict.orElse("it kept changing"), written.size());
                    return -1;
                }
                LOG.info("optimize {}: the table changed at version {} during the rewrite; retrying the commit on top of it", tablePath,
                        latest.getVersion());
                current = newTransaction(latest);
            }
        }
    }

    /** Why the compaction planned on {@code read} cannot be committed on top of {@code latest}; empty if it can. */
    private Optional<String> conflict(Snapshot read, Snapshot latest, List<TableFile> compacted) {
        if (!read.getSchema().equals(latest.getSchema()) || !read.getPartitionColumnNames().equals(latest.getPartitionColumnNames())
                || !read.getTableProperties().equals(latest.getTableProperties())
                || !TableFacts.protocol(read).equals(TableFacts.protocol(latest))) {
            return Optional.of("its schema, partitioning, properties or protocol changed");
        }
        Set<String> latestIdentities = new HashSet<>();
        TableFile.list(engine, latest).forEach(f -> latestIdentities.add(f.identity()));
        long gone = compacted.stream().filter(f -> !latestIdentities.contains(f.identity())).count();
        return gone == 0 ? Optional.empty()
                : Optional.of(gone + " of the compacted files were removed or given deletion vectors by another writer");
    }

    /**
     * Per partition, the small files, and those whose deletion vector marks more than {@value #MAX_DELETED_ROWS_RATIO}
     * of their rows deleted, packed into bins of at most the target size; only bins of two or more files, or that
     * hold such a file (rewriting it purges the deleted rows, as Spark's OPTIMIZE does).
     */
    Map<Map<String, String>, List<List<TableFile>>> plan(List<TableFile> files) {
        long small = options.targetFileSize() / 2;
        Map<Map<String, String>, List<TableFile>> byPartition = new LinkedHashMap<>();
        for (TableFile f : files) {
            if (f.size() < small || manyDeleted(f)) {
                byPartition.computeIfAbsent(new TreeMap<>(f.partitionValues()), k -> new ArrayList<>()).add(f);
            }
        }
        Map<Map<String, String>, List<List<TableFile>>> plan = new LinkedHashMap<>();
        byPartition.forEach((partition, candidates) -> {
            List<TableFile> sorted = new ArrayList<>(candidates);
            sorted.sort(Comparator.comparingLong(TableFile::size));
            List<List<TableFile>> bins = new ArrayList<>();
            List<TableFile> bin = new ArrayList<>();
            long size = 0;
            for (TableFile f : sorted) {
                if (!bin.isEmpty() && size + f.size() > options.targetFileSize()) {
                    bins.add(bin);
                    bin = new ArrayList<>();
                    size = 0;
                }
                bin.add(f);
                size += f.size();
            }
            bins.add(bin);
            bins.removeIf(b -> b.size() < 2 && b.stream().noneMatch(Optimize::manyDeleted));
            if (!bins.isEmpty()) {
                plan.put(partition, bins);
            }
        });
        return plan;
    }

    /** Spark's {@code spark.databricks.delta.optimize.maxDeletedRowsRatio}: a file with more deleted rows is rewritten whatever its size. */
    static final double MAX_DELETED_ROWS_RATIO = 0.05;

    /** True when the file's deletion vector marks more than {@link #MAX_DELETED_ROWS_RATIO} of its rows (per its statistics). */
    static boolean manyDeleted(TableFile f) {
        return f.deletedRows() > 0 && f.numRecords().isPresent() && f.deletedRows() > MAX_DELETED_ROWS_RATIO * f.numRecords().getAsLong();
    }

    /** The path part of a file URI ({@code file:/a} and {@code file:///a} alike). */
    private static String pathOf(String file) {
        return new Path(file).toUri().getPath();
    }

    private void deleteQuietly(List<String> paths) {
        for (String p : paths) {
            try {
                Path path = new Path(p);
                FileSystem fs = path.getFileSystem(KernelEngines.configuration(engine));
                fs.delete(path, false);
            } catch (IOException | RuntimeException e) {
                LOG.warn("optimize {}: cannot delete uncommitted file {} ({}); vacuum removes it later", tablePath, p, e.toString());
            }
        }
    }
}
