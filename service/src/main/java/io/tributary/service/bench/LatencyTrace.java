package io.tributary.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a file's file-to-commit latency goes, from the service's progress lines: for each file
 * dropped, the wait until the ingest batch that took it started (the listing), that batch until
 * its Kafka transaction committed, the wait until the sink's next batch started after that commit
 * (the sink busy with the batch before), the sink's wait for the topic's transactions to complete
 * ({@code latestOffset}), and the sink's read, Parquet write and Delta commit, until its progress line.
 * Times are the machine's wall clock, on which the service stamps its progress lines.
 */
final class LatencyTrace {
    /** An ingest batch: when it started and when its transaction committed (epoch ms). */
    private record IngestBatch(long startMs, long committedMs) {
    }

    /** A sink batch: when it started, when its end offsets were known, when its progress line arrived (epoch ms). */
    private record SinkBatch(long startMs, long endOffsetsMs, long doneMs) {
    }

    private final Map<String, IngestBatch> ingestByFile = new HashMap<>();
    private final List<SinkBatch> sinkBatches = new ArrayList<>();
    private final Map<String, Long> droppedMs = new HashMap<>();

    /** A progress line with rows, read as it arrived at {@code arrivedMs}. */
    synchronized void progress(JsonNode line, long arrivedMs) {
        long start = Instant.parse(line.path("timestamp").asText()).toEpochMilli();
        JsonNode d = line.path("durationMs");
        if (line.path("name").asText().endsWith("/ingest")) {
            IngestBatch b = new IngestBatch(start, start + d.path("triggerExecution").asLong());
            line.path("sources").path(0).path("metrics").path("files").forEach(f -> ingestByFile.put(f.asText(), b));
        } else if (line.path("name").asText().endsWith("/sink")) {
            sinkBatches.add(new SinkBatch(start, start + d.path("latestOffset").asLong(), arrivedMs));
        }
    }

    /** The file named {@code name} in the input folder was dropped at {@code epochMs}. */
    synchronized void dropped(String name, long epochMs) {
        droppedMs.put(name, epochMs);
    }

    /** Prints the median and p99 of each part of the files' latency. */
    synchronized void print(PrintWriter out) {
        List<long[]> parts = new ArrayList<>();
        for (Map.Entry<String, Long> f : droppedMs.entrySet()) {
            IngestBatch in = ingestByFile.get(f.getKey());
            if (in == null) {
                continue;
            }
            // the first sink batch whose end offsets were taken after the ingest's commit holds the file
            SinkBatch sink = sinkBatches.stream().filter(s -> s.endOffsetsMs() >= in.committedMs()).findFirst().orElse(null);
            if (sink == null) {
                continue;
            }
            long sinkStart = Math.max(sink.startMs(), in.committedMs());
            parts.add(new long[] {in.startMs() - f.getValue(), in.committedMs() - in.startMs(), sinkStart - in.committedMs(),
                    sink.endOffsetsMs() - sinkStart, sink.doneMs() - sink.endOffsetsMs()});
        }
        if (parts.isEmpty()) {
            return;
        }
        String[] names = {"to the ingest's batch", "ingest batch to its Kafka commit", "to the sink's batch",
                "the sink's wait for open transactions", "the sink's read, write and Delta commit"};
        StringBuilder line = new StringBuilder("where the latency goes, median / p99 (ms):");
        for (int i = 0; i < names.length; i++) {
            int part = i;
            long[] v = parts.stream().mapToLong(p -> p[part]).sorted().toArray();
            line.append(String.format(Locale.ROOT, " %s %d / %d;", names[i], v[v.length / 2],
                    v[(int) Math.min(v.length - 1, Math.ceil(0.99 * v.length) - 1)]));
        }
        out.println(line.substring(0, line.length() - 1));
        out.printf(Locale.ROOT, "batches: %d ingest, %d sink%n",
                ingestByFile.values().stream().distinct().count(), sinkBatches.size());
    }
}
