package io.tributary.connect;

import io.tributary.schema.BuildVersion;
import io.tributary.connect.internal.ConnectSettings;
import io.tributary.connect.internal.FileOffsets;
import io.tributary.connect.internal.TaskMetrics;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import io.tributary.ingest.InputFiles;
import io.tributary.ingest.InputFiles.InputFile;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes its share of the folder's files: each {@link #poll()} reads the next new files through
 * the stage ({@link InputFiles}) and returns all their records, every record of a file carrying the
 * file as source partition and its ingest-log entry as source offset. Connect commits a poll's
 * records and offsets in one transaction (or, with {@code transaction.boundary} connector, the task
 * asks for the commit at the poll's last record). A file whose offset the worker holds is done;
 * {@code cleanSource} runs once a file's last record is committed.
 */
public class FileSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(FileSourceTask.class);
    /** The header that carries the rows' schema (Spark DDL), so a sink can create the table with it. */
    public static final String SCHEMA_HEADER = "tributary.schema";

    private static final com.fasterxml.jackson.databind.ObjectMapper KEY_JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private FileSourceConfig config;
    /** The columns that key each row's record; empty: no key. */
    private List<String> keys = List.of();
    private IngestConfig ingest;
    private InputFiles files;
    private int index;
    private int count;
    private String name;
    private final Set<String> done = new HashSet<>();
    /** The last record of each published file, identity-keyed: its commit means the file's transaction committed. */
    private final Map<SourceRecord, InputFile> lastRecords = Collections.synchronizedMap(new IdentityHashMap<>());
    /** Files whose transaction committed, cleaned by the task's own thread at its next poll. */
    private final Queue<InputFile> committed = new ConcurrentLinkedQueue<>();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private long transactions;
    private TaskMetrics metrics;

    @Override
    public String version() {
        return BuildVersion.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new FileSourceConfig(props);
        name = props.getOrDefault("name", "tributary-files");
        ingest = config.ingestConfig(name);
        keys = config.keys();
        files = new InputFiles(ingest);
        index = Integer.parseInt(props.getOrDefault(FileSourceConfig.TASK_INDEX, "0"));
        count = Integer.parseInt(props.getOrDefault(FileSourceConfig.TASK_COUNT, "1"));
        metrics = TaskMetrics.of(() -> context.pluginMetrics());
        LOG.info("file source {}: task {} of {} reads its share of {} into topic {}", name, index, count, ingest.inputLocation(), config.topic());
    }

    /** Whether this task owns {@code relPath}: the connector's division of the files (a hash of the name, modulo the task count). */
    boolean owns(String relPath) {
        return count <= 1 || Utils.toPositive(Utils.murmur2(relPath.getBytes(StandardCharsets.UTF_8))) % count == index;
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        List<InputFile> toClean = new ArrayList<>();
        for (InputFile f = committed.poll(); f != null; f = committed.poll()) {
            toClean.add(f);
        }
        files.clean(toClean);
        List<InputFile> fresh = newFiles();
        if (fresh.isEmpty()) {
            stopping.await(config.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
            return null;
        }
        try {
            ingest.joins().refresh(); // Spark's stream-static join: the join tables as of the poll's start
            Instant start = Instant.now();
            ingest.transform().startBatch(start); // current_timestamp(): one value for the poll's rows
            ingest.joins().unionAll().forEach(b -> b.transform().startBatch(start)); // UNION ALL's other queries: the same start
        } catch (TributaryException e) {
            throw new ConnectException("file source " + name + ": " + e.getMessage(), e);
        }
        List<SourceRecord> records = new ArrayList<>();
        long batchId = transactions;
        for (InputFile f : files.select(fresh)) {
            List<SourceRecord> fileRecords = read(f, batchId);
            if (fileRecords == null) {
                LOG.info("file {}: changed while it was being read; left for a later poll", files.display(f.relPath()));
                continue;
            }
            done.add(f.relPath());
            if (fileRecords.isEmpty()) {
                files.clean(List.of(f)); // nothing to publish (an empty file, or every line dropped)
            } else {
                lastRecords.put(fileRecords.get(fileRecords.size() - 1), f);
                records.addAll(fileRecords);
            }
        }
        if (records.isEmpty()) {
            return null;
        }
        transactions++;
        TransactionContext tx = context.transactionContext();
        if (tx != null) {
            tx.commitTransaction(records.get(records.size() - 1));
        }
        return records;
    }

    /** The listed files of this task's share that are not published yet: the worker's offsets say which are. */
    private List<InputFile> newFiles() {
        List<InputFile> mine = new ArrayList<>();
        try {
            for (InputFile f : files.list(System.currentTimeMillis())) {
                if (!done.contains(f.relPath()) && owns(f.relPath())) {
                    mine.add(f);
                }
            }
        } catch (TributaryException e) {
            throw new ConnectException("file source " + name + ": " + e.getMessage(), e);
        }
        if (mine.isEmpty()) {
            return mine;
        }
        Map<Map<String, Object>, Map<String, Object>> offsets = context.offsetStorageReader()
                .offsets(mine.stream().map(f -> FileOffsets.partition(f.relPath())).toList());
        List<InputFile> fresh = new ArrayList<>();
        List<InputFile> leftovers = new ArrayList<>();
        for (InputFile f : mine) {
            Map<String, Object> offset = offsets.get(FileOffsets.partition(f.relPath()));
            if (offset == null) {
                fresh.add(f);
            } else {
                done.add(f.relPath());
                if (FileOffsets.sameFile(offset, f)) {
                    leftovers.add(f); // published by a task that stopped before it cleaned the file
                }
            }
        }
        files.clean(leftovers);
        return fresh;
    }

    /** The file's records, each with the file's source partition and offset; null when it changed while it was read. */
    private List<SourceRecord> read(InputFile f, long batchId) {
        List<String[]> rows = new ArrayList<>(); // {value, timestamp}
        List<String[]> dead = new ArrayList<>(); // {key, value}
        IngestedFile result;
        try {
            result = files.read(f, batchId, new InputFiles.Out() {
                @Override
                public void rows(byte[] value, Long timestampMs) {
                    rows.add(new String[] {new String(value, StandardCharsets.UTF_8), timestampMs == null ? null : timestampMs.toString()});
                }

                @Override
                public void deadLetter(byte[] key, byte[] value) {
                    dead.add(new String[] {new String(key, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8)});
                }
            });
        } catch (IOException e) {
            throw new ConnectException("file source " + name + ": cannot read " + files.display(f.relPath()) + ": " + e.getMessage(), e);
        } catch (TributaryException e) {
            throw new ConnectException("file source " + name + ": " + e.getMessage(), e); // onBadRecord fail: nothing of the poll is published
        }
        if (result == null) {
            return null;
        }
        Map<String, ?> partition = FileOffsets.partition(f.relPath());
        Map<String, ?> offset = FileOffsets.offset(result);
        List<SourceRecord> out = new ArrayList<>(rows.size() + dead.size());
        for (String[] d : dead) {
            out.add(new SourceRecord(partition, offset, ingest.deadLetterTopic(), null, Schema.STRING_SCHEMA, d[0], Schema.STRING_SCHEMA, d[1]));
        }
        String ddl = ingest.outputSchema().toDdl(); // the select's columns
        for (String[] r : rows) {
            ConnectHeaders headers = new ConnectHeaders();
            headers.addString(SCHEMA_HEADER, ddl);
            String key = keys.isEmpty() ? null : keyOf(r[0]);
            out.add(new SourceRecord(partition, offset, config.topic(), null, key == null ? null : Schema.STRING_SCHEMA, key,
                    Schema.STRING_SCHEMA, r[0],
                    r[1] == null ? null : Long.parseLong(r[1]), headers));
        }
        metrics.input(result.rows() + result.badRows());
        metrics.output(result.rows());
        metrics.bad(result.badRows());
        LOG.info("file {}: {} rows read, {} bad lines{}", files.display(f.relPath()), result.rows(), result.badRows(),
                dead.isEmpty() ? "" : " (" + dead.size() + " to " + ingest.deadLetterTopic() + ")");
        return out;
    }

    /** The record key of a row: the JSON array of its key column values, as the row's JSON has them ({@code [3]}, {@code ["eu",7]}). */
    private String keyOf(String rowJson) {
        try {
            com.fasterxml.jackson.databind.JsonNode row = KEY_JSON.readTree(rowJson);
            com.fasterxml.jackson.databind.node.ArrayNode key = KEY_JSON.createArrayNode();
            for (String k : keys) {
                key.add(row.get(k) == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : row.get(k));
            }
            return key.toString();
        } catch (java.io.IOException e) {
            throw new ConnectException("file source " + name + ": a row the stage wrote is not JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Called once the record's transaction committed (with exactly-once support; without it, once
     * Kafka acknowledged it, on the producer's thread): after a file's last record, the file may be cleaned.
     */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        InputFile f = lastRecords.remove(record);
        if (f != null) {
            committed.add(f);
        }
    }

    @Override
    public void stop() {
        stopping.countDown();
    }
}
