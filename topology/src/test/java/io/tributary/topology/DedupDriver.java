package io.tributary.topology;

import io.tributary.schema.GroupKey;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** A TopologyTestDriver around the deduplication, speaking in input JSON lines, markers and the rows kept. */
final class DedupDriver implements AutoCloseable, SparkBatches.Events {
    static final String EVENTS = "events";
    static final String RESULTS = "results";

    private final DedupSpec spec;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> events;
    private final TestOutputTopic<byte[], byte[]> results;
    private final RowJson rows;
    private final GroupKey keys;
    private final List<String> markers = new ArrayList<>();

    DedupDriver(DedupSpec spec, Path stateDir) {
        this.spec = spec;
        Properties props = WindowedAggregation.streamsConfig("dedup-test", "127.0.0.1:9", stateDir, "test-instance");
        driver = new TopologyTestDriver(Deduplication.build(spec, EVENTS, RESULTS), props);
        events = driver.createInputTopic(EVENTS, new ByteArraySerializer(), new ByteArraySerializer());
        results = driver.createOutputTopic(RESULTS, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        rows = new RowJson(spec.inputSchema());
        keys = new GroupKey(spec.inputSchema(), spec.keys());
    }

    /** Pipes one row as file-ingest publishes it: key = the key columns' values, timestamp = event time. */
    @Override
    public long row(String jsonLine) {
        Object[] row = rows.parse(jsonLine);
        Long ts = spec.eventTimeIndex() < 0 ? null : (Long) row[spec.eventTimeIndex()];
        long tsMs = ts == null ? 0 : Math.floorDiv(ts, 1000);
        events.pipeInput(new TestRecord<>(keys.key(row), rows.write(row), new RecordHeaders(), Instant.ofEpochMilli(tsMs)));
        return tsMs;
    }

    @Override
    public void marker(long batchId, Long watermarkMs) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        events.pipeInput(new TestRecord<>(null, Topics.watermarkMarker(batchId, watermarkMs, false), headers, Instant.ofEpochMilli(0)));
    }

    /** The rows kept since the last call, as {@code id|user|amt|ts} (the golden files' form); markers are collected apart. */
    List<String> rows() {
        List<String> out = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : results.readRecordsToList()) {
            if (r.headers().lastHeader(Topics.MARKER_HEADER) != null) {
                markers.add(new String(r.value(), StandardCharsets.UTF_8));
                continue;
            }
            RowPack.forEachRow(r.value(), (bytes, offset, length) -> out.add(line(rows.parse(bytes, offset, length))));
        }
        return out;
    }

    /** The markers forwarded so far (JSON, with the batch's counts). */
    List<String> markers() {
        return markers;
    }

    static String line(Object[] row) {
        Object ts = row[3] == null ? null : Timestamps.formatMicros((Long) row[3]).replace('T', ' ').replace("Z", "");
        return row[0] + "|" + row[1] + "|" + row[2] + "|" + ts;
    }

    /** How many keys the keys store (RocksDB and its changelog) holds. */
    int keysInStore() {
        int n = 0;
        try (var it = driver.<org.apache.kafka.common.utils.Bytes, byte[]>getKeyValueStore(Deduplication.NAME + "-keys").all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    Double metric(String name) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals(AggregateMetrics.GROUP) && e.getKey().name().equals(name))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(null);
    }

    @Override
    public void close() {
        driver.close();
    }
}
