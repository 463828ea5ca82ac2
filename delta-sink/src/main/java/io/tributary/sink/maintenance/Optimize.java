package io.tributary.sink.maintenance;

import io.delta.kernel.Operation;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.utils.CloseableIterable;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.Compaction;
import io.tributary.sink.internal.PostCommitHooks;
import io.tributary.sink.internal.TableFile;
import io.tributary.sink.internal.TableSnapshots;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        ConcurrentWriteException last = null;
        for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
            Snapshot snapshot = TableSnapshots.latest(engine, tablePath).orElseThrow(() -> new TributaryException(
                    "optimize: no Delta table at " + tablePath + " (no _delta_log with a commit); give the folder of an existing table"));
            PartitionFilter filter = PartitionFilter.parse(options.where(), snapshot.getPartitionColumnNames());
            Scan scan = snapshot.getScanBuilder().build();
            List<TableFile> files = TableFile.list(engine, scan).stream().filter(f -> filter.matches(f.partitionValues())).toList();
            Map<Map<String, String>, List<List<TableFile>>> plan = plan(files);
            if (plan.isEmpty()) {
                LOG.info("optimize {}: nothing to compact at version {} ({} files)", tablePath, snapshot.getVersion(), files.size());
                return new OptimizeResult(tablePath, -1, attempt, 0, files.size(), 0, 0, 0, 0);
            }
            Transaction txn = snapshot.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
            Compaction compaction = new Compaction(engine, snapshot, scan);
            List<Row> actions = new ArrayList<>();
            List<String> written = new ArrayList<>();
            int removed = 0;
            int added = 0;
            long bytesRemoved = 0;
            long bytesAdded = 0;
            try {
                for (Map.Entry<Map<String, String>, List<List<TableFile>>> partition : plan.entrySet()) {
                    for (List<TableFile> bin : partition.getValue()) {
                        Compaction.Rewrite r = compaction.rewrite(txn, partition.getKey(), bin);
                        actions.addAll(r.actions());
                        written.addAll(r.written());
                        removed += bin.size();
                        bytesRemoved += bin.stream().mapToLong(TableFile::size).sum();
                        added += r.written().size();
                        bytesAdded += r.bytesWritten();
                    }
                }
                beforeCommit.accept(attempt);
                TransactionCommitResult result = txn.commit(engine, CloseableIterable.inMemoryIterable(
                        io.delta.kernel.internal.util.Utils.toCloseableIterator(actions.iterator())));
                PostCommitHooks.run(engine, tablePath, result);
                OptimizeResult done = new OptimizeResult(tablePath, result.getVersion(), attempt, plan.size(), files.size(),
                        removed, bytesRemoved, added, bytesAdded);
                LOG.info("{}", done.summary());
                return done;
            } catch (ConcurrentWriteException e) {
                last = e;
                LOG.info("optimize {}: attempt {} conflicts with a concurrent commit ({}); deleting its {} new files and planning again",
                        tablePath, attempt, e.getMessage(), written.size());
                deleteQuietly(written);
            } catch (RuntimeException e) {
                deleteQuietly(written);
                throw e;
            }
        }
        throw new TributaryException("optimize " + tablePath + ": every one of " + options.maxAttempts() + " attempts met a concurrent commit "
                + "that removed files being compacted (last: " + (last == null ? "?" : last.getMessage()) + "); the table is unchanged. "
                + "Run it again when the other writer (an upsert or another optimize) is quieter", last);
    }

    /** Per partition, the small files packed into bins of at most the target size; only bins of two or more files. */
    Map<Map<String, String>, List<List<TableFile>>> plan(List<TableFile> files) {
        long small = options.targetFileSize() / 2;
        Map<Map<String, String>, List<TableFile>> byPartition = new LinkedHashMap<>();
        for (TableFile f : files) {
            if (f.size() < small) {
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
            bins.removeIf(b -> b.size() < 2);
            if (!bins.isEmpty()) {
                plan.put(partition, bins);
            }
        });
        return plan;
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
