package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.maintenance.AutoOptimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.sink.maintenance.TableDescription;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sink writing a table partitioned by the event day, compacted in the background every 3 commits, on a real broker. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PartitionedSinkIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final RowJson ROWS = new RowJson(SCHEMA);

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static Map<String, Object> client() {
        return KAFKA.client();
    }

    private static void publish(String topic, List<Object[]> rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                producer.send(new ProducerRecord<>(topic, 0, null, ROWS.write(row)));
            }
        });
    }

    @Test
    void aDailyPartitionedTableStaysCompactWhileTheSinkRuns() throws Exception {
        String topic = KAFKA.newTopic("part", 1);
        String table = dir.resolve("out").toString();
        SinkConfig config = SinkConfig.builder(table, SCHEMA, topic, "tributary-part-sink", "part/sink")
                .partitionBy(List.of("date(ts) as day")).build();
        List<String> expected = new ArrayList<>();
        try (DeltaSink sink = new DeltaSink(config, client());
             AutoOptimize optimize = new AutoOptimize(table, 3, OptimizeOptions.defaults())) {
            for (int batch = 0; batch < 6; batch++) {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    int id = batch * 10 + i;
                    long ts = Timestamps.parseMicros("2024-05-0" + (1 + i % 2) + "T12:00:00Z", true);
                    rows.add(new Object[] {id, "u" + i, id * 0.5, ts});
                    expected.add(Arrays.deepToString(new Object[] {id, "u" + i, id * 0.5, ts, 19844 + i % 2}));
                }
                publish(topic, rows);
                assertThat(sink.runBatch()).isPresent();
                optimize.afterCommit();
            }
        } // close() waits for the background compaction

        expected.sort(null);
        List<String> rows = DeltaTables.readRows(table).stream().map(Arrays::deepToString).sorted().toList();
        assertThat(rows).isEqualTo(expected);
        assertThat(Files.isDirectory(dir.resolve("out/day=2024-05-01"))).isTrue();
        TableDescription d = TableDescription.of(table, OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);
        assertThat(d.partitions()).containsOnlyKeys("day=2024-05-01", "day=2024-05-02");
        // 12 sink files; at least the first compaction (after commit 3) ran, so fewer files remain
        assertThat(d.files()).isLessThan(12);
        assertThat(d.transactions()).containsEntry("tributary-part-sink", 5L);
        assertThat(DeltaTables.history(table)).anyMatch(c -> "Manual Update".equals(c.operation()));
        // the sink resumes from the table after compactions
        try (DeltaSink restarted = new DeltaSink(config, client())) {
            assertThat(restarted.nextBatchId()).isEqualTo(6);
            assertThat(restarted.runBatch()).isEmpty();
        }
    }
}
