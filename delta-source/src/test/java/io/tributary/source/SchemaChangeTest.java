package io.tributary.source;

import static io.tributary.source.TestTable.row;
import static io.tributary.source.TestTable.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.SettledLog;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The delta-source when the table's schema changes: added columns flow through, other changes stop it as Spark does. */
@Tag("integration")
class SchemaChangeTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    static final StructType KERNEL = new StructType()
            .add("id", IntegerType.INTEGER, true).add("user", StringType.STRING, true).add("amt", DoubleType.DOUBLE, true);
    private static final AtomicInteger PIPELINES = new AtomicInteger();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    /** A row record's value and its schema header (null without one). */
    record Published(String value, String schema) {
    }

    Map<String, Object> kafka() {
        return KAFKA.client();
    }

    List<Published> published(DeltaSourceConfig c) {
        List<Published> out = new ArrayList<>();
        SettledLog.read(kafka(), c.topic(), "test-reader", () -> new TributaryException("no topic " + c.topic()), "reading " + c.topic(), r -> {
            if (r.headers().lastHeader(Topics.MARKER_HEADER) == null) {
                Header h = r.headers().lastHeader(Topics.SCHEMA_HEADER);
                String header = h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
                RowPack.forEachRow(r.value(), (b, off, len) -> out.add(new Published(new String(b, off, len, StandardCharsets.UTF_8), header)));
            }
        });
        return out;
    }

    TestTable table() {
        return TestTable.create(dir.resolve("silver"), SCHEMA, KERNEL, Map.of());
    }

    DeltaSourceConfig.Builder config(TestTable t) {
        return DeltaSourceConfig.builder("evolve" + PIPELINES.incrementAndGet(), t.path);
    }

    @Test
    void addedColumnsFlowThroughFromTheCommitThatAddsThemAndTheirRecordsNameTheGrownSchema() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.runBatch()).isPresent();
            t.append(rows(row(2, "b", 2.0)));
            TestTable grown = t.changeSchema(Schema.parse("id INT, user STRING, amt DOUBLE, country STRING"),
                    KERNEL.add("country", StringType.STRING, true));
            grown.append(rows(row(3, "c", 3.0, "fr")));
            // the batch stops before the change; the next one reads the new schema
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.schema().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, country STRING");
            assertThat(source.runBatch()).isEmpty();
        }
        assertThat(published(c)).containsExactly(
                new Published("{\"id\":1,\"user\":\"a\",\"amt\":1.0}", null),
                new Published("{\"id\":2,\"user\":\"b\",\"amt\":2.0}", null),
                new Published("{\"id\":3,\"user\":\"c\",\"amt\":3.0,\"country\":\"fr\"}", "id INT, user STRING, amt DOUBLE, country STRING"));
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            assertThat(restarted.schema().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, country STRING");
            assertThat(restarted.runBatch()).isEmpty();
        }
    }

    @Test
    void aDroppedColumnStopsTheStreamNamingTheVersionBothSchemasAndHowToGoOn() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            TestTable dropped = t.changeSchema(Schema.parse("id INT, user STRING"),
                    new StructType().add("id", IntegerType.INTEGER, true).add("user", StringType.STRING, true));
            long v = dropped.version();
            dropped.append(rows(row(2, "b")));
            assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("[DELTA_SCHEMA_CHANGED_WITH_VERSION] Detected schema change in version " + v + " of " + t.path)
                    .hasMessageContaining("streaming source schema: id INT, user STRING, amt DOUBLE")
                    .hasMessageContaining("schema at version " + v + ": id INT, user STRING")
                    .hasMessageContaining("column 'amt' is gone (dropped or renamed)")
                    .hasMessageContaining("delete key '" + t.path + "' from topic " + c.progressTopic())
                    .hasMessageContaining("startingVersion: " + v);
        }
        assertThat(published(c)).hasSize(1);
    }

    @Test
    void aTypeChangeStopsTheStreamNamingTheColumnAndBothTypes() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            t.changeSchema(Schema.parse("id BIGINT, user STRING, amt DOUBLE"),
                    new StructType().add("id", LongType.LONG, true).add("user", StringType.STRING, true).add("amt", DoubleType.DOUBLE, true));
            assertThatThrownBy(source::runBatch).hasMessageContaining("DELTA_SCHEMA_CHANGED_WITH_VERSION")
                    .hasMessageContaining("column 'id' changes type from INT to BIGINT");
        }
    }

    @Test
    void underAnAggregationAddedColumnsAreNotRead() {
        Schema timed = Schema.parse("id INT, user STRING, ts TIMESTAMP");
        StructType kernel = new StructType().add("id", IntegerType.INTEGER, true).add("user", StringType.STRING, true)
                .add("ts", TimestampType.TIMESTAMP, true);
        TestTable t = TestTable.create(dir.resolve("timed"), timed, kernel, Map.of());
        t.append(rows(row(1, "a", 0L)));
        DeltaSourceConfig c = config(t).eventTime("ts").watermarkDelay(Duration.ofMinutes(5)).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            TestTable grown = t.changeSchema(Schema.parse("id INT, user STRING, ts TIMESTAMP, country STRING"),
                    kernel.add("country", StringType.STRING, true));
            grown.append(rows(row(2, "b", 0L, "fr")));
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.schema()).isEqualTo(timed);
        }
        assertThat(published(c)).extracting(Published::value).containsExactly(
                "{\"id\":1,\"user\":\"a\",\"ts\":\"1970-01-01T00:00:00Z\"}", "{\"id\":2,\"user\":\"b\",\"ts\":\"1970-01-01T00:00:00Z\"}");
        assertThat(published(c)).extracting(Published::schema).containsOnlyNulls();
    }
}
