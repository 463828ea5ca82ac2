package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the REST API's validation answers: each problem on the key it is about, in the stage's words. */
class ConnectorValidationTest {
    @TempDir
    Path dir;

    private Map<String, String> source() {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", FileSourceConnector.class.getName());
        c.put("name", "orders-files");
        c.put("path", dir.toString());
        c.put("schema", "id INT, user STRING");
        c.put("topic", "orders");
        return c;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return ValidationErrors.of(new FileSourceConnector(), config);
    }

    @Test
    void aValidConfigHasNoErrors() {
        assertThat(errors(source())).isEmpty();
    }

    @Test
    void aBadSchemaIsRefusedOnItsKey() {
        Map<String, String> c = source();
        c.put("schema", "id INTEGR");
        assertThat(errors(c)).containsOnlyKeys("schema");
    }

    @Test
    void archiveWithoutAFolderIsRefusedOnCleanSource() {
        Map<String, String> c = source();
        c.put("cleanSource", "archive");
        assertThat(errors(c)).containsOnlyKeys("cleanSource");
        assertThat(errors(c).get("cleanSource")).singleElement().asString().contains("sourceArchiveDir");
    }

    @Test
    void sourceKeysMustBeColumnsOfRowsOfTheirOwnRecord() {
        Map<String, String> c = source();
        c.put("keys", "id");
        assertThat(errors(c)).isEmpty();
        c.put("keys", "uid");
        assertThat(errors(c)).containsOnlyKeys("keys");
        c.put("keys", "id");
        c.put("rowsPerRecord", "1000");
        assertThat(errors(c).get("keys")).singleElement().asString().contains("rowsPerRecord is 1000");
    }

    @Test
    void debeziumFilesPublishRowsWithOpAndLsn() {
        Map<String, String> c = source();
        c.put("format", "debezium-json");
        c.put("debezium.sequence", "file, pos, row");
        c.put("keys", "id");
        assertThat(errors(c)).isEmpty();
        assertThat(new FileSourceConfig(c).ingestConfig("orders-files").schema().toDdl())
                .isEqualTo("id INT, user STRING, op STRING, lsn STRING");
        c.put("format", "json");
        assertThat(errors(c)).containsOnlyKeys("debezium.sequence");
    }

    @Test
    void intervalTransactionBoundariesAreRefused() {
        Map<String, String> c = source();
        c.put("transaction.boundary", "interval");
        assertThat(errors(c)).containsOnlyKeys("transaction.boundary");
    }

    @Test
    void storageKeysAreTheSpecsStorageMap() {
        Map<String, String> c = source();
        c.put("path", "s3a://landing/orders/");
        c.put("storage.fs.s3a.endpoint", "http://127.0.0.1:9000");
        c.put("storage.fs.s3a.path.style.access", "true");
        assertThat(errors(c)).isEmpty();
        io.tributary.ingest.IngestConfig ingest = new FileSourceConfig(c).ingestConfig("orders-files");
        assertThat(ingest.inputLocation()).isEqualTo("s3a://landing/orders/");
        assertThat(ingest.inputDir()).isNull();
        assertThat(ingest.storage().settings())
                .containsExactlyInAnyOrderEntriesOf(Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000", "fs.s3a.path.style.access", "true"));
        DeltaSinkConfig sink = new DeltaSinkConfig(Map.of("delta.path", "s3a://lake/orders/", "storage.fs.s3a.endpoint", "http://127.0.0.1:9000"));
        assertThat(sink.storage().settings()).containsExactly(Map.entry("fs.s3a.endpoint", "http://127.0.0.1:9000"));
    }

    @Test
    void theSinkNamesABadSize() {
        Map<String, String> c = new HashMap<>(Map.of("delta.path", dir.toString(), "targetFileSize", "big"));
        List<ConfigValue> values = new DeltaSinkConnector().validate(c).configValues();
        assertThat(values).filteredOn(v -> !v.errorMessages().isEmpty()).extracting(ConfigValue::name).containsExactly("targetFileSize");
    }

    private Map<String, List<String>> sinkErrors(Map<String, String> overrides) {
        Map<String, String> c = new HashMap<>(Map.of("connector.class", DeltaSinkConnector.class.getName(), "name", "orders-delta",
                "topics", "orders", "delta.path", dir.resolve("t").toString(), "schema", "id INT, v STRING"));
        c.putAll(overrides);
        return ValidationErrors.of(new DeltaSinkConnector(), c);
    }

    @Test
    void upsertWithKeysIsValid() {
        assertThat(sinkErrors(Map.of("mode", "upsert", "keys", "id"))).isEmpty();
        assertThat(sinkErrors(Map.of("mode", "upsert", "keys", "id", "order", "v", "allowNonEmptyPath", "true"))).isEmpty();
    }

    @Test
    void upsertWithoutKeysIsRefusedOnKeys() {
        Map<String, List<String>> e = sinkErrors(Map.of("mode", "upsert"));
        assertThat(e).containsOnlyKeys("keys");
        assertThat(e.get("keys")).singleElement().asString().contains("mode is upsert").contains("set keys");
    }

    @Test
    void keysOutsideTheSchemaOrWithAppendAreRefusedOnKeys() {
        assertThat(sinkErrors(Map.of("mode", "upsert", "keys", "uid")).get("keys")).singleElement().asString()
                .contains("'uid'").contains("id INT, v STRING");
        assertThat(sinkErrors(Map.of("keys", "id")).get("keys")).singleElement().asString().contains("mode is append");
        assertThat(sinkErrors(Map.of("mode", "upsert", "keys", "id", "order", "ts"))).containsOnlyKeys("order");
        assertThat(sinkErrors(Map.of("mode", "merge"))).containsOnlyKeys("mode");
        assertThat(sinkErrors(Map.of("mode", "upsert", "keys", "id", "schema", "id INT, ts TIMESTAMP", "partitionBy", "date(ts) as day")))
                .containsOnlyKeys("partitionBy");
    }

    @Test
    void changeDataIsCheckedAsThePipelinesSinkChecksIt() {
        Map<String, String> cdc = new HashMap<>(Map.of("schema", "op STRING, id INT, v STRING, lsn BIGINT", "mode", "upsert", "keys", "id",
                "sequenceBy", "lsn", "deleteWhen", "op = 'd'", "exceptColumns", "op", "deleteRetention", "3 days"));
        assertThat(sinkErrors(cdc)).isEmpty();
        DeltaSinkConfig config = new DeltaSinkConfig(new HashMap<>(Map.of("delta.path", dir.toString(), "mode", "upsert", "keys", "id",
                "sequenceBy", "lsn", "deleteWhen", "op = 'd'", "exceptColumns", "op")));
        assertThat(config.keys().changes()).isEqualTo(new io.tributary.sink.SinkChanges("lsn", "op = 'd'", List.of("op"),
                java.time.Duration.ofDays(7)));

        Map<String, String> c = new HashMap<>(cdc);
        c.put("sequenceBy", "seq");
        assertThat(sinkErrors(c).get("sequenceBy")).singleElement().asString().contains("'seq'").contains("not in the sink's schema");
        c = new HashMap<>(cdc);
        c.put("exceptColumns", "lsn");
        assertThat(sinkErrors(c).get("exceptColumns")).singleElement().asString().contains("the sequenceBy column");
        c = new HashMap<>(cdc);
        c.put("deleteWhen", "op LIKE");
        assertThat(sinkErrors(c)).containsOnlyKeys("deleteWhen");
        c = new HashMap<>(cdc);
        c.put("mode", "append");
        c.remove("keys");
        assertThat(sinkErrors(c).get("sequenceBy")).singleElement().asString().contains("upsert only");
        assertThat(config.problems()).as("no schema: the table lacks op").containsOnlyKeys("schema");
        assertThat(config.problems().get("schema")).contains("exceptColumns is set, but schema is not");
    }

    @Test
    void historyIsCheckedAsThePipelinesSinkChecksIt() {
        Map<String, String> cdc = new HashMap<>(Map.of("schema", "op STRING, id INT, v STRING, lsn BIGINT", "mode", "upsert", "keys", "id",
                "sequenceBy", "lsn", "history", "true", "trackHistoryColumns", "v"));
        assertThat(sinkErrors(cdc)).isEmpty();
        Map<String, String> props = new HashMap<>(cdc);
        props.put("delta.path", dir.toString());
        assertThat(new DeltaSinkConfig(props).keys().changes()).isEqualTo(new io.tributary.sink.SinkChanges("lsn", null, List.of(),
                java.time.Duration.ofDays(7), true, new io.tributary.sink.SinkChanges.TrackHistory(List.of("v"), List.of())));
        cdc.remove("sequenceBy");
        assertThat(sinkErrors(cdc).get("history")).singleElement().asString().contains("sequenceBy is not set");
        cdc.put("sequenceBy", "lsn");
        cdc.put("history", "false");
        assertThat(sinkErrors(cdc)).containsOnlyKeys("trackHistoryColumns");
    }

    @Test
    void dropDuplicatesIsModeAppendsOverColumnsOfTheSchemaAndWithinWatermarkIsRefused() {
        Map<String, String> dedup = new HashMap<>(Map.of("schema", "id INT, v STRING", "dropDuplicates.keys", "id"));
        assertThat(sinkErrors(dedup)).isEmpty();
        Map<String, String> props = new HashMap<>(dedup);
        props.put("delta.path", dir.toString());
        assertThat(new DeltaSinkConfig(props).keys()).isEqualTo(io.tributary.sink.PartitionSink.Keys.dropDuplicates(List.of("id"), 100000));
        dedup.put("dropDuplicates.keys", "idd");
        assertThat(sinkErrors(dedup).get("dropDuplicates.keys")).singleElement().asString().contains("'idd'").contains("id INT, v STRING");
        dedup.put("dropDuplicates.keys", "id");
        dedup.put("dropDuplicates.withinWatermark", "1 hour");
        assertThat(sinkErrors(dedup).get("dropDuplicates.withinWatermark")).singleElement().asString()
                .contains("keeps no event time nor watermark").contains("dropDuplicates.keys alone");
        dedup.remove("dropDuplicates.withinWatermark");
        dedup.put("mode", "upsert");
        dedup.put("keys", "id");
        assertThat(sinkErrors(dedup).get("dropDuplicates.keys")).singleElement().asString().contains("mode upsert");
    }
}
