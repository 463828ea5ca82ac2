package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spark's foreachBatch MERGE scenario through the sink: a real broker, real tables. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class UpsertSinkIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    private static final RowJson ROWS = new RowJson(SCHEMA);

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static Map<String, Object> client() {
        return KAFKA.client();
    }

    private static String newTopic() throws Exception {
        return KAFKA.newTopic("u", 2);
    }

    /** Keyed records (key = JSON array of the id), as a producer that keys its records writes them; a null row is a tombstone. */
    private static void publish(String topic, Object[]... rows) {
        publish(topic, 2, rows);
    }

    /** As above, into a topic of {@code partitions} partitions (partition: id modulo their number). */
    private static void publish(String topic, int partitions, Object[]... rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                int id = (Integer) row[0];
                byte[] key = ("[" + id + "]").getBytes(StandardCharsets.UTF_8);
                byte[] value = row.length == 1 ? null : ROWS.write(row);
                producer.send(new ProducerRecord<>(topic, Math.floorMod(id, partitions), key, value));
            }
        });
    }

    private static Object[] row(int id, String user, double amt) {
        return new Object[] {id, user, amt};
    }

    private static Object[] tombstone(int id) {
        return new Object[] {id};
    }

    private static final Object[][] SEED = {row(1, "a", 10), row(2, "b", 20), row(3, "c", 30), row(4, "d", 40),
            row(3, "c", 35), row(5, "e", 50)};

    private SinkConfig config(String topic, String table, SinkMode mode) {
        SinkConfig c = SinkConfig.of(dir.resolve(table).toString(), SCHEMA, topic, "tributary-seed-sink", "seed/sink");
        return mode == SinkMode.APPEND ? c : c.toBuilder().mode(mode, List.of("id"), null).build();
    }

    private List<String> rows(String table) {
        List<String> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve(table).toString())) {
            out.add(r[0] + ":" + r[1] + ":" + r[2]);
        }
        out.sort(null);
        return out;
    }

    @Test
    void seedUpsertGivesFiveRowsTwiceWhileAppendKeepsSix() throws Exception {
        String topic = newTopic();
        publish(topic, SEED);
        try (DeltaSink sink = new DeltaSink(config(topic, "upsert", SinkMode.UPSERT), client())) {
            Progress p = sink.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(6);
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsInserted", 5L);
        }
        assertThat(rows("upsert")).containsExactly("1:a:10.0", "2:b:20.0", "3:c:35.0", "4:d:40.0", "5:e:50.0");
        try (DeltaSink again = new DeltaSink(config(topic, "upsert", SinkMode.UPSERT), client())) {
            assertThat(again.runBatch()).isEmpty(); // the offsets are in the table: no batch, as Spark with its checkpoint
        }
        publish(topic, SEED); // the same input once more (Spark's rerun with the checkpoint deleted)
        try (DeltaSink again = new DeltaSink(config(topic, "upsert", SinkMode.UPSERT), client())) {
            Progress p = again.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsUpdated", 5L).containsEntry("numTargetRowsInserted", 0L);
        }
        assertThat(rows("upsert")).hasSize(5);

        try (DeltaSink append = new DeltaSink(config(topic, "append", SinkMode.APPEND), client())) {
            append.runBatch().orElseThrow();
        }
        assertThat(rows("append")).hasSize(12).filteredOn(s -> s.startsWith("3:")).hasSize(4);
    }

    @Test
    void laterRowsUpdateNewKeysInsertAndTombstonesDelete() throws Exception {
        String topic = newTopic();
        publish(topic, SEED);
        try (DeltaSink sink = new DeltaSink(config(topic, "t", SinkMode.UPSERT), client())) {
            sink.runBatch().orElseThrow();
            publish(topic, row(2, "b", 99), row(6, "f", 60), tombstone(4));
            Progress p = sink.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsInserted", 1L)
                    .containsEntry("numTargetRowsDeleted", 1L);
        }
        assertThat(rows("t")).containsExactly("1:a:10.0", "2:b:99.0", "3:c:35.0", "5:e:50.0", "6:f:60.0");
        assertThat(DeltaTables.history(dir.resolve("t").toString())).extracting(TableCommit::operation).containsOnly("STREAMING UPDATE");
    }

    @Test
    void aBatchOfOnePartitionCollapsesByOrderAndTombstonesAsItIsRead() throws Exception {
        String topic = KAFKA.newTopic("u1", 1); // one partition: the batch collapses while it is read
        publish(topic, 1, row(1, "a", 10), row(1, "a", 5), row(2, "b", 1), tombstone(2), row(3, "c", 9), tombstone(3),
                row(3, "c", 2), row(4, "d", 4), row(4, "d", 4.5));
        SinkConfig ordered = SinkConfig.builder(dir.resolve("o").toString(), SCHEMA, topic, "tributary-seed-sink", "seed/sink")
                .mode(SinkMode.UPSERT, List.of("id"), "amt").build();
        try (DeltaSink sink = new DeltaSink(ordered, client())) {
            Progress p = sink.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(9);
            assertThat(p.sink().metrics()).containsEntry("numSourceKeys", 4L).containsEntry("numTargetRowsInserted", 3L);
            publish(topic, 1, row(1, "a", 1), tombstone(4), row(5, "e", 5));
            p = sink.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsDeleted", 1L)
                    .containsEntry("numTargetRowsInserted", 1L);
        }
        // amt orders rows within a batch (10 beats the later 5); a tombstone forgets the rows before it; a later batch replaces
        assertThat(rows("o")).containsExactly("1:a:1.0", "3:c:2.0", "5:e:5.0");
    }

    @Test
    void completeModeReplacesTheTableWithEachBatch() throws Exception {
        String topic = newTopic();
        publish(topic, row(1, "a", 1), row(2, "b", 2));
        try (DeltaSink sink = new DeltaSink(config(topic, "c", SinkMode.COMPLETE), client())) {
            sink.runBatch().orElseThrow();
            publish(topic, row(1, "a", 3), row(7, "g", 7));
            sink.runBatch().orElseThrow();
        }
        assertThat(rows("c")).containsExactly("1:a:3.0", "7:g:7.0");
    }
}
