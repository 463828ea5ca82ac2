package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelEngines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A table's {@code _delta_log} folder as files: which commits and checkpoints still exist, the
 * {@code _last_checkpoint} pointer, and the {@code txn}, {@code add}, {@code remove} and {@code cdc}
 * actions found in the commit JSONs and in the checkpoint the snapshot was built from, whatever its
 * kind (classic, multi-part, or V2 with sidecars); Kernel has no public API that lists these.
 */
public final class LogDirectory {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Classic {@code N.checkpoint.parquet}, multi-part {@code N.checkpoint.i.n.parquet}, V2 {@code N.checkpoint.<uuid>.json|parquet}. */
    private static final Pattern CHECKPOINT = Pattern.compile("\\d{20}\\.checkpoint(\\.\\d{10}\\.\\d{10}|\\.[0-9a-fA-F-]{36})?\\.(parquet|json)");
    private static final StructType CHECKPOINT_READ = new StructType()
            .add("add", new StructType().add("path", StringType.STRING).add("deletionVector", KernelInternals.deletionVectorReadSchema()))
            .add("remove", new StructType().add("path", StringType.STRING).add("deletionTimestamp", LongType.LONG)
                    .add("deletionVector", KernelInternals.deletionVectorReadSchema()))
            .add("txn", new StructType().add("appId", StringType.STRING).add("version", LongType.LONG));

    /**
     * A file that an {@code add}, {@code remove} or {@code cdc} action names.
     *
     * @param logPath the action's {@code path} as the log holds it: relative to the table and URI-encoded, or an absolute URI
     * @param deletionVectorFile the absolute path of the action's deletion vector file; null without one (or inline)
     * @param removedAt a remove's {@code deletionTimestamp} (epoch ms; 0 if it has none); -1 for add and cdc
     */
    public record FileAction(String logPath, String deletionVectorFile, long removedAt) {
    }

    private final Engine engine;
    private final String tableRoot;
    private final FileSystem fs;
    private final Path log;
    private final TreeMap<Long, FileStatus> commits = new TreeMap<>();
    private final TreeMap<Long, FileStatus> checkpoints = new TreeMap<>();

    public LogDirectory(Engine engine, String tablePath) {
        this.engine = engine;
        this.tableRoot = KernelEngines.tablePath(tablePath);
        this.log = new Path(tableRoot, "_delta_log");
        try {
            this.fs = log.getFileSystem(KernelEngines.configuration(engine));
            if (fs.exists(log)) {
                for (FileStatus f : fs.listStatus(log)) {
                    String name = f.getPath().getName();
                    if (name.matches("\\d{20}\\.json")) {
                        commits.put(Long.parseLong(name.substring(0, 20)), f);
                    } else if (CHECKPOINT.matcher(name).matches()) {
                        checkpoints.put(Long.parseLong(name.substring(0, 20)), f);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the Delta log " + log, e);
        }
    }

    /** Versions whose commit JSON still exists. */
    public TreeSet<Long> commitVersions() {
        return new TreeSet<>(commits.keySet());
    }

    /** Versions with a checkpoint (of any kind). */
    public TreeSet<Long> checkpointVersions() {
        return new TreeSet<>(checkpoints.keySet());
    }

    /** The oldest version the table can still be read at: 0 if its commit exists, else the oldest checkpoint followed by commits; -1 if none. */
    public long oldestReadableVersion() {
        if (commits.containsKey(0L)) {
            return 0;
        }
        long firstCommit = commits.isEmpty() ? Long.MAX_VALUE : commits.firstKey();
        return checkpoints.keySet().stream().filter(c -> c >= firstCommit - 1).findFirst()
                .orElse(checkpoints.isEmpty() ? -1L : checkpoints.lastKey());
    }

    /** The version {@code _last_checkpoint} points to, if the file exists. */
    public Optional<Long> lastCheckpoint() {
        Path p = new Path(log, "_last_checkpoint");
        try {
            if (!fs.exists(p)) {
                return Optional.empty();
            }
            try (var in = fs.open(p)) {
                return Optional.of(JSON.readTree(in).path("version").asLong());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }

    /** Every txn appId seen in the snapshot's checkpoint and the commit JSONs, with the highest version seen. */
    public Map<String, Long> transactions(Snapshot snapshot) {
        Map<String, Long> out = new TreeMap<>();
        readCheckpoint(snapshot, (b, i) -> {
            ColumnVector txn = b.getColumnVector(2);
            if (!txn.isNullAt(i)) {
                out.merge(txn.getChild(0).getString(i), txn.getChild(1).getLong(i), Math::max);
            }
        });
        forEachCommitAction(a -> {
            if (a.has("txn")) {
                out.merge(a.get("txn").path("appId").asText(), a.get("txn").path("version").asLong(), Math::max);
            }
        });
        return out;
    }

    /**
     * Every file that an {@code add} or {@code remove} of the snapshot's checkpoint (its parts or
     * sidecars included) or an {@code add}, {@code remove} or {@code cdc} of a commit JSON that
     * still exists names, with the action's deletion vector file; a file may come more than once.
     */
    public void fileActions(Snapshot snapshot, Consumer<FileAction> consumer) {
        readCheckpoint(snapshot, (b, i) -> {
            ColumnVector add = b.getColumnVector(0);
            if (!add.isNullAt(i)) {
                consumer.accept(new FileAction(add.getChild(0).getString(i), dvFile(add.getChild(1), i), -1));
            }
            ColumnVector remove = b.getColumnVector(1);
            if (!remove.isNullAt(i)) {
                ColumnVector ts = remove.getChild(1);
                consumer.accept(new FileAction(remove.getChild(0).getString(i), dvFile(remove.getChild(2), i), ts.isNullAt(i) ? 0 : ts.getLong(i)));
            }
        });
        forEachCommitAction(a -> {
            for (String kind : List.of("add", "remove", "cdc")) {
                JsonNode f = a.get(kind);
                if (f != null && f.hasNonNull("path")) {
                    JsonNode dv = f.path("deletionVector");
                    String dvFile = dv.hasNonNull("storageType") ? KernelInternals.deletionVectorFile(dv.get("storageType").asText(),
                            dv.path("pathOrInlineDv").asText(), tableRoot).orElse(null) : null;
                    consumer.accept(new FileAction(f.get("path").asText(), dvFile, "remove".equals(kind) ? f.path("deletionTimestamp").asLong(0) : -1));
                }
            }
        });
    }

    private String dvFile(ColumnVector dv, int row) {
        return KernelInternals.deletionVectorFile(dv, row, tableRoot).orElse(null);
    }

    private interface CheckpointRow {
        void accept(ColumnarBatch batch, int row);
    }

    private void readCheckpoint(Snapshot snapshot, CheckpointRow consumer) {
        List<io.delta.kernel.utils.FileStatus> files = KernelInternals.checkpointFiles(snapshot);
        if (files.isEmpty()) {
            return;
        }
        try (CloseableIterator<ColumnarBatch> it = KernelInternals.readActions(engine, files, CHECKPOINT_READ)) {
            while (it.hasNext()) {
                ColumnarBatch b = it.next();
                for (int i = 0; i < b.getSize(); i++) {
                    consumer.accept(b, i);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the checkpoint " + files.get(0).getPath() + " of " + tableRoot, e);
        }
    }

    private void forEachCommitAction(Consumer<JsonNode> consumer) {
        for (FileStatus f : commits.values()) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (!line.isBlank()) {
                        consumer.accept(JSON.readTree(line));
                    }
                }
            } catch (java.io.FileNotFoundException gone) {
                // cleaned up by a concurrent checkpoint: its actions are in that checkpoint
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read commit " + f.getPath(), e);
            }
        }
    }
}
