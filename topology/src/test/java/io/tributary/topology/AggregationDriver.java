package io.tributary.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** A TopologyTestDriver around the aggregation, speaking in input JSON lines, markers and result rows. */
final class AggregationDriver implements AutoCloseable, SparkBatches.Events {
    static final String EVENTS = "events";
    static final String RESULTS = "results";
    static final String LATE = "late-rows";
    private static final ObjectMapper JSON = new ObjectMapper();

    final AggregateSpec spec;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> events;
    private final TestOutputTopic<byte[], byte[]> results;
    private final TestOutputTopic<byte[], byte[]> late;
    private final RowJson input;
    private final RowJson output;
    /** The rows {@link #row} packs into one record (file-ingest's source.files.rowsPerRecord); 1: a record per row. */
    private int rowsPerRecord = 1;
    /** The binary form rows are piped in, as file-ingest writes them for an aggregation ({@link #binary}), or null for JSON. */
    private RowBinary binary;
    private final List<String> unpiped = new ArrayList<>();

    AggregationDriver(AggregateSpec spec, Path stateDir, boolean lateRows) {
        this(spec, stateDir, lateRows, io.tributary.topology.internal.WindowedAggregateProcessor.CLOSE_CHUNK);
    }

    /** @param closeChunk the windows a transaction closes, about: a small one closes in several steps */
    AggregationDriver(AggregateSpec spec, Path stateDir, boolean lateRows, long closeChunk) {
        this(spec, stateDir, lateRows, closeChunk, false);
    }

    private AggregationDriver(AggregateSpec spec, Path stateDir, boolean lateRows, long closeChunk, boolean binaryResults) {
        this.spec = spec;
        Properties props = WindowedAggregation.streamsConfig("agg-test", "127.0.0.1:9", stateDir, "test-instance");
        driver = new TopologyTestDriver(WindowedAggregation.build(spec, EVENTS, RESULTS, lateRows ? LATE : null, closeChunk, null,
                binaryResults), props);
        events = driver.createInputTopic(EVENTS, new ByteArraySerializer(), new ByteArraySerializer());
        results = driver.createOutputTopic(RESULTS, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        late = lateRows ? driver.createOutputTopic(LATE, new ByteArrayDeserializer(), new ByteArrayDeserializer()) : null;
        input = new RowJson(spec.inputSchema());
        output = new RowJson(spec.outputSchema());
    }

    static AggregationDriver of(AggregateSpec spec, Path stateDir) {
        return new AggregationDriver(spec, stateDir, false);
    }

    /**
     * A driver whose {@link #row} packs {@code rowsPerRecord} rows into a record, as file-ingest does (1,000 by default); a
     * marker pipes the rows packed so far first. TopologyTestDriver commits after each record, so the rows of a record are
     * the ones a commit does not come between.
     */
    static AggregationDriver packing(AggregateSpec spec, Path stateDir, int rowsPerRecord) {
        AggregationDriver d = new AggregationDriver(spec, stateDir, false);
        d.rowsPerRecord = rowsPerRecord;
        return d;
    }

    /**
     * A driver whose rows are piped in binary ({@link RowBinary}, header {@code tributary.rows}), as file-ingest publishes an
     * aggregation's events, and whose results come in binary, as the aggregation writes them for the Delta sink.
     */
    static AggregationDriver binary(AggregateSpec spec, Path stateDir, boolean lateRows) {
        AggregationDriver d = new AggregationDriver(spec, stateDir, lateRows, io.tributary.topology.internal.WindowedAggregateProcessor.CLOSE_CHUNK,
                true);
        d.binary = RowBinary.of(spec.inputSchema());
        return d;
    }

    /** Pipes one input row as file-ingest publishes it: key = group values, timestamp = event time. */
    @Override
    public long row(String jsonLine) {
        Object[] row = input.parse(jsonLine);
        if (rowsPerRecord > 1) {
            unpiped.add(jsonLine);
            if (unpiped.size() == rowsPerRecord) {
                pipeUnpiped();
            }
            Long ts = (Long) row[spec.eventTimeIndex()];
            return ts == null ? 0 : Math.floorDiv(ts, 1000);
        }
        StringBuilder key = new StringBuilder("[");
        for (int i : spec.groupByIndex()) {
            key.append(key.length() > 1 ? "," : "").append(jsonValue(row[i]));
        }
        key.append(']');
        Long ts = (Long) row[spec.eventTimeIndex()];
        long tsMs = ts == null ? 0 : Math.floorDiv(ts, 1000);
        byte[] value = input.write(row);
        RecordHeaders headers = new RecordHeaders();
        if (binary != null) {
            RowPack pack = new RowPack(64, binary);
            pack.add(input, row, tsMs);
            value = pack.take();
            headers.add(Topics.ROWS_HEADER, binary.schema().toDdl().getBytes(StandardCharsets.UTF_8));
        }
        events.pipeInput(new TestRecord<>(key.toString().getBytes(StandardCharsets.UTF_8), value, headers, Instant.ofEpochMilli(tsMs)));
        return tsMs;
    }

    private void pipeUnpiped() {
        if (!unpiped.isEmpty()) {
            packed(unpiped);
            unpiped.clear();
        }
    }

    /** Pipes rows in one record, packed as file-ingest packs them (source.files.rowsPerRecord); its timestamp the newest row's. */
    void packed(List<String> jsonLines) {
        RowPack pack = new RowPack(RowPack.MAX_BYTES, binary);
        for (String line : jsonLines) {
            Object[] row = input.parse(line);
            Long ts = (Long) row[spec.eventTimeIndex()];
            if (binary != null) {
                pack.add(input, row, ts == null ? -1 : Math.floorDiv(ts, 1000));
            } else {
                pack.add(line.getBytes(StandardCharsets.UTF_8), ts == null ? -1 : Math.floorDiv(ts, 1000));
            }
        }
        Long newest = pack.timestamp();
        RecordHeaders headers = new RecordHeaders();
        if (binary != null) {
            headers.add(Topics.ROWS_HEADER, binary.schema().toDdl().getBytes(StandardCharsets.UTF_8));
        }
        events.pipeInput(new TestRecord<>(null, pack.take(), headers, Instant.ofEpochMilli(newest == null ? 0 : newest)));
    }

    private static String jsonValue(Object v) {
        try {
            return JSON.writeValueAsString(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pipes a watermark marker (watermarkMs null: no watermark yet). */
    @Override
    public void marker(long batchId, Long watermarkMs) {
        pipeUnpiped();
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        String value = "{\"batchId\":" + batchId + ",\"watermarkMs\":" + watermarkMs + "}";
        events.pipeInput(new TestRecord<>(null, value.getBytes(StandardCharsets.UTF_8), headers, Instant.ofEpochMilli(0)));
    }

    /** How many markers' closings are not done yet. */
    int pendingCloses() {
        return metric(AggregateMetrics.PENDING_CLOSES).intValue();
    }

    /**
     * Lets the wall clock run until no closing is pending: each tick of the punctuator takes a step
     * and commits; returns how many ticks that took.
     */
    int finishClosings() {
        int ticks = 0;
        while (pendingCloses() > 0) {
            if (++ticks > 10_000) {
                throw new AssertionError("closings still pending after " + ticks + " ticks");
            }
            driver.advanceWallClockTime(java.time.Duration.ofMillis(10));
        }
        return ticks;
    }

    /** Everything written to the results topic since the last call: each marker, and each row of each packed record. */
    List<Output> drain() {
        List<Output> out = new ArrayList<>();
        int record = 0;
        for (TestRecord<byte[], byte[]> r : results.readRecordsToList()) {
            boolean marker = r.headers().lastHeader(Topics.MARKER_HEADER) != null
                    && Arrays.equals(r.headers().lastHeader(Topics.MARKER_HEADER).value(), Topics.WATERMARK);
            int index = record++;
            org.apache.kafka.common.header.Header rows = r.headers().lastHeader(Topics.ROWS_HEADER);
            if (marker) {
                out.add(new Output(true, index, null, new String(r.value(), StandardCharsets.UTF_8)));
            } else if (rows != null) {
                RowBinary b = RowBinary.of(Schema.parse(new String(rows.value(), StandardCharsets.UTF_8)));
                RowBinary.Cursor c = b.cursor(r.value());
                while (c.hasNext()) {
                    Object[] row = c.next();
                    out.add(new Output(false, index, row, new String(output.write(row), StandardCharsets.UTF_8)));
                }
            } else if (binary != null) {
                throw new AssertionError("results record " + index + " in JSON Lines, where the aggregation was to write binary rows");
            } else {
                RowPack.forEachRow(r.value(), (bytes, offset, length) -> out.add(new Output(false, index,
                        output.parse(bytes, offset, length), new String(bytes, offset, length, StandardCharsets.UTF_8))));
            }
        }
        return out;
    }

    /** Result rows (not markers) since the last call, as {@code window|group...|aggregates...} lines. */
    List<String> rows() {
        return drain().stream().filter(o -> !o.marker()).map(Output::line).toList();
    }

    List<JsonNode> lateRows() {
        return late.readValuesToList().stream().map(v -> {
            try {
                return JSON.readTree(v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    Double metric(String name) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals(AggregateMetrics.GROUP) && e.getKey().name().equals(name))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(null);
    }

    /** How many open windows the windows store (RocksDB and its changelog) holds. */
    int windowsInStore() {
        return entries(WindowedAggregation.NAME + "-windows");
    }

    /** How many open sessions the sessions store (RocksDB and its changelog) holds. */
    int sessionsInStore() {
        return entries(WindowedAggregation.NAME + "-sessions");
    }

    private int entries(String store) {
        int n = 0;
        try (var it = driver.<org.apache.kafka.common.utils.Bytes, byte[]>getKeyValueStore(store).all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        pipeUnpiped();
        driver.close();
    }

    /** A marker or a result row, and the index of the results record that held it. */
    record Output(boolean marker, int record, Object[] row, String value) {
        /** {@code {start, end}|group...|aggregates...} with timestamps as {@code yyyy-MM-dd HH:mm:ss}, as the golden files print them. */
        String line() {
            Object[] w = (Object[]) row[0];
            StringBuilder sb = new StringBuilder("{" + ts((Long) w[0]) + ", " + ts((Long) w[1]) + "}");
            for (int i = 1; i < row.length; i++) {
                sb.append('|').append(row[i] instanceof Double d ? round(d) : String.valueOf(row[i]));
            }
            return sb.toString();
        }

        private static String ts(long micros) {
            return Timestamps.formatMicros(micros).replace('T', ' ').replace("Z", "");
        }

        private static String round(double d) {
            return String.valueOf(new java.math.BigDecimal(d).setScale(6, java.math.RoundingMode.HALF_EVEN).doubleValue());
        }

        JsonNode json() {
            try {
                return JSON.readTree(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static Schema seedSchema() {
        return Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    }
}
