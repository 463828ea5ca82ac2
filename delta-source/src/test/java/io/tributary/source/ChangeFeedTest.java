package io.tributary.source;

import static io.tributary.source.TestTable.row;
import static io.tributary.source.TestTable.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.StringType;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** readChangeFeed: Spark's change-feed rows from a table with delta.enableChangeDataFeed, on a real broker. */
@Tag("integration")
class ChangeFeedTest {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    Map<String, Object> kafka() {
        return KAFKA.client();
    }

    TestTable cdfTable() {
        return TestTable.create(dir.resolve("bronze"), DeltaSourceTest.SCHEMA, DeltaSourceTest.KERNEL,
                TestTable.props("delta.enableChangeDataFeed", "true"));
    }

    static String change(int id, String user, double amt, String type, long version, long timestampMs) {
        return "{\"id\":" + id + ",\"user\":\"" + user + "\",\"amt\":" + amt + ",\"_change_type\":\"" + type
                + "\",\"_commit_version\":" + version + ",\"_commit_timestamp\":\"" + Timestamps.formatMicros(timestampMs * 1000) + "\"}";
    }

    @Test
    void theChangeFeedCarriesInsertsUpdatesFromCdcFilesAndDeletesWithVersionAndTimestamp() {
        TestTable t = cdfTable();
        long v1 = t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0)));
        DeltaSourceConfig c = DeltaSourceConfig.builder("cdf1", t.path).readChangeFeed(true).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.schema()).isEqualTo(Schema.parse(
                    "id INT, user STRING, amt DOUBLE, _change_type STRING, _commit_version BIGINT, _commit_timestamp TIMESTAMP"));
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(2);

            // an UPDATE as Spark writes it on a CDF table: remove + add (dataChange=true) and a cdc file with pre/post images
            String[] old = t.files().get(0);
            String[] rewritten = t.writeParquet("", t.kernelSchema, rows(row(1, "a", 10.0), row(2, "b", 2.0)));
            String[] cdc = t.writeParquet("_change_data", t.kernelSchema.add("_change_type", StringType.STRING, true),
                    rows(row(1, "a", 1.0, "update_preimage"), row(1, "a", 10.0, "update_postimage")));
            long v2 = t.writeRawCommit(
                    "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"UPDATE\",\"operationParameters\":{\"predicate\":\"[\\\"(id = 1)\\\"]\"}}}",
                    "{\"remove\":{\"path\":\"" + old[0] + "\",\"deletionTimestamp\":1,\"dataChange\":true,\"extendedFileMetadata\":true,"
                            + "\"partitionValues\":{},\"size\":" + old[1] + "}}",
                    "{\"add\":{\"path\":\"" + rewritten[0] + "\",\"partitionValues\":{},\"size\":" + rewritten[1]
                            + ",\"modificationTime\":1,\"dataChange\":true}}",
                    "{\"cdc\":{\"path\":\"" + cdc[0] + "\",\"partitionValues\":{},\"size\":" + cdc[1] + ",\"dataChange\":false}}");
            long v3 = t.deleteFiles(r -> (Integer) r[0] == 2); // a remove-only commit: Kernel writes no cdc file, rows read back as deletes
            t.compact(); // dataChange=false: nothing
            long v5 = t.append(rows(row(3, "c", 3.0)));
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(5);

            assertThat(TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic())).containsExactly(
                    change(1, "a", 1.0, "insert", v1, t.commitTimestampMs(v1)),
                    change(2, "b", 2.0, "insert", v1, t.commitTimestampMs(v1)),
                    change(1, "a", 1.0, "update_preimage", v2, t.commitTimestampMs(v2)),
                    change(1, "a", 10.0, "update_postimage", v2, t.commitTimestampMs(v2)),
                    change(1, "a", 10.0, "delete", v3, t.commitTimestampMs(v3)),
                    change(2, "b", 2.0, "delete", v3, t.commitTimestampMs(v3)),
                    change(3, "c", 3.0, "insert", v5, t.commitTimestampMs(v5)));
        }
    }

    @Test
    void withoutReadChangeFeedTheSameUpdateStopsWithSparksMessageNamingTheOperation() {
        TestTable t = cdfTable();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = DeltaSourceConfig.builder("cdf2", t.path).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            String[] old = t.files().get(0);
            String[] rewritten = t.writeParquet("", t.kernelSchema, rows(row(1, "a", 10.0)));
            long v = t.writeRawCommit(
                    "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"UPDATE\",\"operationParameters\":{\"predicate\":\"(id = 1)\"}}}",
                    "{\"remove\":{\"path\":\"" + old[0] + "\",\"deletionTimestamp\":1,\"dataChange\":true,\"size\":" + old[1] + "}}",
                    "{\"add\":{\"path\":\"" + rewritten[0] + "\",\"partitionValues\":{},\"size\":" + rewritten[1]
                            + ",\"modificationTime\":1,\"dataChange\":true}}");
            assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("Detected a data update (for example UPDATE {predicate=(id = 1)}) in the source table at version " + v);
        }
    }

    @Test
    void readChangeFeedOnATableWithoutTheChangeFeedIsRefused() {
        TestTable t = TestTable.create(dir.resolve("plain"), DeltaSourceTest.SCHEMA, DeltaSourceTest.KERNEL, Map.of());
        DeltaSource source = new DeltaSource(DeltaSourceConfig.builder("cdf3", t.path).readChangeFeed(true).build(), kafka());
        assertThatThrownBy(source::schema).isInstanceOf(TributaryException.class)
                .hasMessageContaining("does not have delta.enableChangeDataFeed=true");
        source.close();
    }
}
