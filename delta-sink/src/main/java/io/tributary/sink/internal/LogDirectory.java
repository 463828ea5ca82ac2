package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A table's {@code _delta_log} folder as files: which commits and checkpoints still exist, the
 * {@code _last_checkpoint} pointer, and the {@code txn} and {@code remove} actions found in the
 * commit JSONs and the latest checkpoint (Kernel has no public API that lists these).
 */
public final class LogDirectory {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StructType CHECKPOINT_READ = new StructType()
            .add("txn", new StructType().add("appId", StringType.STRING).add("version", LongType.LONG))
            .add("remove", new StructType().add("path", StringType.STRING).add("deletionTimestamp", LongType.LONG));

    /** A {@code remove} action: the file's log path and when it was removed (epoch ms; 0 if unknown). */
    public record Removal(String path, long deletionTimestamp) {
    }

    private final Engine engine;
    private final FileSystem fs;
    private final Path log;
    private final TreeMap<Long, FileStatus> commits = new TreeMap<>();
    private final TreeMap<Long, FileStatus> checkpoints = new TreeMap<>();

    public LogDirectory(Engine engine, String tablePath) {
        this.engine = engine;
        this.log = new Path(KernelEngines.tablePath(tablePath), "_delta_log");
        try {
            this.fs = log.getFileSystem(KernelEngines.configuration(engine));
            if (fs.exists(log)) {
                for (FileStatus f : fs.listStatus(log)) {
                    String name = f.getPath().getName();
                    if (name.matches("\\d{20}\\.json")) {
                        commits.put(Long.parseLong(name.substring(0, 20)), f);
                    } else if (name.matches("\\d{20}\\.checkpoint\\.parquet")) {
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

    /** Versions with a (single-file) checkpoint. */
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

    /** Every txn appId seen in the latest checkpoint and the commits after it, with the highest version seen. */
    public Map<String, Long> transactions() {
        Map<String, Long> out = new TreeMap<>();
        readCheckpoint((txn, remove, i) -> {
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

    /** Every remove in the latest checkpoint and in the commit JSONs that exist. */
    public List<Removal> removals() {
        List<Removal> out = new ArrayList<>();
        readCheckpoint((txn, remove, i) -> {
            if (!remove.isNullAt(i)) {
                ColumnVector ts = remove.getChild(1);
                out.add(new Removal(remove.getChild(0).getString(i), ts.isNullAt(i) ? 0 : ts.getLong(i)));
            }
        });
        forEachCommitAction(a -> {
            if (a.has("remove")) {
                out.add(new Removal(a.get("remove").path("path").asText(), a.get("remove").path("deletionTimestamp").asLong(0)));
            }
        });
        return out;
    }

    private interface CheckpointRow {
        void accept(ColumnVector txn, ColumnVector remove, int row);
    }

    private void readCheckpoint(CheckpointRow consumer) {
        if (checkpoints.isEmpty()) {
            return;
        }
        FileStatus f = checkpoints.lastEntry().getValue();
        io.delta.kernel.utils.FileStatus status = io.delta.kernel.utils.FileStatus.of(f.getPath().toString(), f.getLen(), f.getModificationTime());
        try (CloseableIterator<FileReadResult> it = engine.getParquetHandler()
                .readParquetFiles(Iterators.of(List.of(status)), CHECKPOINT_READ, Optional.empty())) {
            while (it.hasNext()) {
                ColumnarBatch b = it.next().getData();
                for (int i = 0; i < b.getSize(); i++) {
                    consumer.accept(b.getColumnVector(0), b.getColumnVector(1), i);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + f.getPath(), e);
        }
    }

    private void forEachCommitAction(java.util.function.Consumer<JsonNode> consumer) {
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
