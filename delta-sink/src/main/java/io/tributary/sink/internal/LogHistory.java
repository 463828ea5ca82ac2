package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.TableCommit;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import io.tributary.storage.Storage;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A table's commit history read straight from the {@code _delta_log/NNN.json} files that still
 * exist (Kernel has no public history API): operation, txn, adds and the sink's offsets per version.
 */
public final class LogHistory {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LogHistory() {
    }

    public static List<TableCommit> read(String tablePath) {
        return read(tablePath, Storage.NONE);
    }

    public static List<TableCommit> read(String tablePath, Storage storage) {
        Path log = new Path(KernelEngines.tablePath(tablePath), "_delta_log");
        try {
            FileSystem fs = log.getFileSystem(KernelEngines.configuration(storage));
            if (!fs.exists(log)) {
                return List.of();
            }
            List<TableCommit> commits = new ArrayList<>();
            for (FileStatus f : fs.listStatus(log, p -> p.getName().matches("\\d{20}\\.json"))) {
                long version = Long.parseLong(f.getPath().getName().substring(0, 20));
                try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
                    commits.add(parse(version, r));
                }
            }
            commits.sort((a, b) -> Long.compare(a.version(), b.version()));
            return commits;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Delta log of " + tablePath, e);
        }
    }

    private static TableCommit parse(long version, BufferedReader r) throws IOException {
        long timestamp = 0;
        String operation = null;
        String appId = null;
        long txnVersion = -1;
        int files = 0;
        long rows = 0;
        SinkOffsets offsets = null;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode action = JSON.readTree(line);
            if (action.has("commitInfo")) {
                timestamp = action.get("commitInfo").path("timestamp").asLong();
                operation = action.get("commitInfo").path("operation").asText(null);
            } else if (action.has("txn")) {
                appId = action.get("txn").path("appId").asText(null);
                txnVersion = action.get("txn").path("version").asLong(-1);
            } else if (action.has("add")) {
                files++;
                String stats = action.get("add").path("stats").asText(null);
                if (stats != null) {
                    rows += JSON.readTree(stats).path("numRecords").asLong();
                }
            } else if (action.has("domainMetadata")) {
                JsonNode dm = action.get("domainMetadata");
                if (SinkOffsets.DOMAIN.equals(dm.path("domain").asText()) && !dm.path("removed").asBoolean(false)) {
                    offsets = SinkOffsets.parse(dm.path("configuration").asText());
                }
            }
        }
        return new TableCommit(version, timestamp, operation, appId, txnVersion, files, rows, offsets);
    }
}
