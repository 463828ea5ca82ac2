package io.tributary.service.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad specs, environment variables and --set values: one line naming the place, the key and the fix. */
class PipelineSpecErrorsTest {
    @TempDir
    Path dir;

    PipelineSpec load(String yaml, Map<String, String> env, Map<String, String> set) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, yaml);
        return PipelineSpec.load(f, env, set);
    }

    AbstractThrowableAssert<?, ? extends Throwable> refused(String yaml, Map<String, String> env, Map<String, String> set) {
        return assertThatThrownBy(() -> load(yaml, env, set)).isInstanceOf(TributaryException.class)
                .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"));
    }

    AbstractThrowableAssert<?, ? extends Throwable> refused(String yaml) {
        return refused(yaml, Map.of(), Map.of());
    }

    @Test
    void closeIdleWindowsAfterIsRefusedWithADeltaSource() {
        refused("""
                name: gold
                source:
                  delta:
                    path: silver/
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  select: { n: count(*) }
                  closeIdleWindowsAfter: 1 minute
                sink:
                  delta:
                    path: gold/
                """).hasMessageContaining("aggregate.closeIdleWindowsAfter").hasMessageContaining("a Delta source")
                .hasMessageContaining("remove it");
    }

    @Test
    void aDebeziumTopicNeedsTheTablesColumnsAndTakesItsSequence() throws IOException {
        String debezium = """
                name: customers
                source:
                  kafka:
                    topics: [PostgreSQL_server.public.customers]
                    format: debezium-json
                %s
                kafka: { bootstrap.servers: "127.0.0.1:9" }
                sink: { delta: { path: out/, mode: upsert, keys: [id], sequenceBy: lsn, deleteWhen: "op = 'd'" } }
                """;
        refused(debezium.formatted("")).hasMessageContaining("source.kafka.topics").hasMessageContaining("source.kafka.schema")
                .hasMessageContaining("line 4");
        PipelineSpec spec = load(debezium.formatted("    schema: \"id INT, name STRING\"\n    debezium: { sequence: [file, pos, row] }"),
                Map.of(), Map.of());
        assertThat(spec.list(Settings.KAFKA_SOURCE + ".debezium.sequence")).containsExactly("file", "pos", "row");
    }

    @Test
    void jsonWithoutASchemaIsInferredButNotUnderAnAggregationAndDebeziumAvroNeedsTheRegistry() throws IOException {
        assertThat(load(KAFKA_AGGREGATE.substring(0, KAFKA_AGGREGATE.indexOf("aggregate:")).replace(
                "    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n", "") + "sink:\n  delta:\n    path: out/\n",
                Map.of(), Map.of()).name()).isEqualTo("sales");
        refused(KAFKA_AGGREGATE.replace("    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n", ""))
                .hasMessageContaining("source.kafka.schema is not given").hasMessageContaining("not for an aggregation");
        String avro = """
                name: customers
                source:
                  kafka:
                    topics: [dbserver1.inventory.customers]
                    format: debezium-avro
                %s
                kafka: { bootstrap.servers: "127.0.0.1:9" }
                sink: { delta: { path: out/, mode: upsert, keys: [id], sequenceBy: lsn, deleteWhen: "op = 'd'" } }
                """;
        refused(avro.formatted("")).hasMessageContaining("format debezium-avro").hasMessageContaining("source.kafka.schemaRegistry.url");
        refused(avro.formatted("    schemaRegistry: { url: \"http://127.0.0.1:9\" }\n    schema: \"id INT\""))
                .hasMessageContaining("source.kafka.schema");
        assertThat(load(avro.formatted("    schemaRegistry: { url: \"http://127.0.0.1:9\" }\n    debezium: { sequence: [file, pos] }"),
                Map.of(), Map.of()).list(Settings.KAFKA_SOURCE + ".debezium.sequence")).containsExactly("file", "pos");
    }

    private static final String FILES_TO_DELTA = """
            name: t
            source: { files: { path: in/, format: json, schema: "id INT" } }
            sink: { delta: { path: out/ } }
            kafka:
              bootstrap.servers: 127.0.0.1:9
            """;

    @Test
    void anApiTimeoutBelowTheRequestTimeoutIsRefusedWithKafkasRule() {
        refused(FILES_TO_DELTA + "  request.timeout.ms: 40000\n  default.api.timeout.ms: 20000\n").hasMessageMatching(
                "spec .*pipeline.yaml line 7: key 'kafka.default.api.timeout.ms' is 20000, below 'kafka.request.timeout.ms' \\(40000,"
                        + " spec .*pipeline.yaml line 6\\); Kafka's clients need default.api.timeout.ms >= request.timeout.ms: raise"
                        + " kafka.default.api.timeout.ms to at least 40000 or lower kafka.request.timeout.ms");
    }

    @Test
    void anApiTimeoutBelowKafkasDefaultRequestTimeoutIsRefused() {
        refused(FILES_TO_DELTA, Map.of(), Map.of("kafka.default.api.timeout.ms", "10000")).hasMessage("--set kafka.default.api.timeout.ms:"
                + " key 'kafka.default.api.timeout.ms' is 10000, below 'kafka.request.timeout.ms' (Kafka's default, 30000); Kafka's clients"
                + " need default.api.timeout.ms >= request.timeout.ms: raise kafka.default.api.timeout.ms to at least 30000 or set"
                + " kafka.request.timeout.ms");
    }

    @Test
    void anApiTimeoutAtOrAboveTheRequestTimeoutIsKept() throws IOException {
        assertThat(load(FILES_TO_DELTA + "  request.timeout.ms: 2000\n  default.api.timeout.ms: 2000\n", Map.of(), Map.of())
                .map(Settings.KAFKA)).containsEntry("default.api.timeout.ms", "2000");
    }

    @Test
    void aQueryAndATransformBlockTogetherAreRefusedNamingBoth() {
        refused(FILES_TO_DELTA + """
                sql: SELECT id FROM source
                transform:
                  where: "id > 0"
                """).hasMessageMatching("spec .*pipeline.yaml line 8: key 'transform.where' and the query of sql \\(spec .*pipeline.yaml"
                        + " line 6\\) both transform the rows; write the transform once: .*");
    }

    @Test
    void aQueryAndDropDuplicatesAreTakenWithADeltaSource() throws IOException {
        assertThat(load("""
                name: t
                source: { delta: { path: silver/ } }
                sql: SELECT * FROM source
                sink: { delta: { path: out/ } }
                """, Map.of(), Map.of()).has(Settings.SQL)).isTrue();
        assertThat(load("""
                name: t
                source: { delta: { path: silver/ } }
                transform: { dropDuplicates: { keys: [id] } }
                sink: { delta: { path: out/ } }
                """, Map.of(), Map.of()).list("transform.dropDuplicates.keys")).containsExactly("id");
    }

    @Test
    void whatAQueryCannotExpressIsRefusedAtLoadNamingItsPlace() {
        refused(FILES_TO_DELTA + """
                sql: |
                  SELECT id
                  FROM source
                  ORDER BY id
                """).hasMessageMatching("spec .*pipeline.yaml line 6: sql: ORDER BY at line 3, column 1 of the query is not supported: .*");
        refused(FILES_TO_DELTA + """
                sql: |
                  SELECT id,
                    amt * 2 AS twice
                  FROM source WHERE
                """).hasMessageMatching("spec .*pipeline.yaml line 6: sql: the query does not parse at line 4, column 1 near the end .*");
    }

    // YAML syntax

    @Test
    void aBadIndentIsNamedByLineAndColumn() {
        refused("""
                name: t
                source:
                  files:
                    path: in/
                   format: json
                """).hasMessageContaining("pipeline.yaml line 5, column 4").hasMessageContaining("indent");
    }

    @Test
    void aKeyIndentedUnderAValueIsNamedByLineAndColumn() {
        refused("""
                name: t
                source:
                  files:
                    path: in/
                      format: json
                """).hasMessageContaining("pipeline.yaml line 5, column 13").hasMessageContaining("indent");
    }

    @Test
    void anUnclosedQuoteNamesWhereItOpened() {
        refused("""
                name: "t
                source:
                  files:
                    path: in/
                """).hasMessageContaining("pipeline.yaml line 1, column 7").hasMessageContaining("quote");
    }

    @Test
    void aTabIndentIsNamedByLineAndColumn() {
        refused("name: t\nsource:\n\tfiles:\n    path: in/\n")
                .hasMessageContaining("pipeline.yaml line 3, column 1").hasMessageContaining("tab").hasMessageContaining("spaces");
    }

    @Test
    void anEmptySpecSaysSo() {
        refused("").hasMessageContaining("pipeline.yaml: the spec is empty");
        refused("\n\n").hasMessageContaining("the spec is empty");
        refused("# name: t\n# nothing but comments\n").hasMessageContaining("the spec is empty");
        refused("---\n").hasMessageContaining("the spec is empty");
    }

    @Test
    void aKeyGivenTwiceInOneMappingNamesBothLines() {
        refused(PipelineSpecTest.QUICKSTART + "name: other\n")
                .hasMessageContaining("'name'").hasMessageContaining("line 1").hasMessageContaining("line 11");
        refused(PipelineSpecTest.QUICKSTART.replace("    path: out/\n", "    path: out/\n    path: out2/\n"))
                .hasMessageContaining("'sink.delta.path'").hasMessageContaining("line 9").hasMessageContaining("line 10");
        refused(PipelineSpecTest.QUICKSTART + "kafka:\n  acks: all\n  acks: 1\n")
                .hasMessageContaining("'kafka.acks'").hasMessageContaining("line 12").hasMessageContaining("line 13");
    }

    @Test
    void aDottedKeyBesideItsNestedFormIsGivenTwice() {
        refused(PipelineSpecTest.QUICKSTART + "sink.delta.path: elsewhere/\n")
                .hasMessageContaining("'sink.delta.path'").hasMessageContaining("line 9").hasMessageContaining("line 11");
    }

    // environment variables

    @Test
    void aMisspelledEnvironmentVariableIsRefusedByName() {
        refused(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGER", "1"), Map.of())
                .hasMessageContaining("TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGER")
                .hasMessageContaining("did you mean TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGGER");
        refused(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_HTTP_PROT", "8081"), Map.of())
                .hasMessageContaining("TRIBUTARY_HTTP_PROT").hasMessageContaining("TRIBUTARY_HTTP_PORT");
    }

    @Test
    void theLaunchersOwnVariablesAreNotKeys() throws IOException {
        PipelineSpec spec = load(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_JAVA_OPTS", "-Xmx2g", "TRIBUTARY_CDS", "off",
                "TRIBUTARY_CRASH_AT", "", "TRIBUTARY_BENCH_STATS", "/tmp/x", "TRIBUTARYX", "1"), Map.of());
        assertThat(spec.describe()).doesNotContainKeys("java.opts", "cds");
    }

    @Test
    void aBadValueFromTheEnvironmentNamesTheVariableNotTheSpec() {
        refused(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGGER", "many"), Map.of())
                .hasMessageStartingWith("environment variable TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGGER: ")
                .hasMessageContaining("expected a whole number").hasMessageNotContaining("pipeline.yaml");
        refused(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_LOG_FORMAT", "xml"), Map.of())
                .hasMessageStartingWith("environment variable TRIBUTARY_LOG_FORMAT: ").hasMessageContaining("[text, json]");
        refused(PipelineSpecTest.QUICKSTART, Map.of("TRIBUTARY_AGGREGATE_WATERMARK", "5 fortnights"), Map.of())
                .hasMessageStartingWith("environment variable TRIBUTARY_AGGREGATE_WATERMARK: ");
    }

    @Test
    void aBadValueNamesItsLineOrItsSetOption() {
        refused(PipelineSpecTest.QUICKSTART.replace("format: json", "format: json\n    maxFilesPerTrigger: many"))
                .hasMessageContaining("pipeline.yaml line 6: key 'source.files.maxFilesPerTrigger' is 'many'");
        refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("source.files.maxFilesPerTrigger", "many"))
                .hasMessageStartingWith("--set source.files.maxFilesPerTrigger: ");
    }

    @Test
    void aBadSizeOrDurationSaysHowToWriteOne() {
        refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("source.files.maxBytesPerTrigger", "lots"))
                .hasMessage("--set source.files.maxBytesPerTrigger: key 'source.files.maxBytesPerTrigger' is 'lots'; "
                        + "expected a size such as 1048576, 16m or 128 MiB");
        refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("trigger", "processingTime=soon"))
                .hasMessageContaining("key 'trigger.processingTime' is 'soon'; expected a duration, written as Spark does");
    }

    // paths and ports

    @Test
    void aSinkPathThatIsAFileIsRefused() throws IOException {
        Files.writeString(dir.resolve("out"), "not a table");
        refused(PipelineSpecTest.QUICKSTART)
                .hasMessageContaining("sink.delta.path").hasMessageContaining(dir.resolve("out").toString())
                .hasMessageContaining("is a file");
    }

    @Test
    void anHttpPortOutOfRangeIsRefused() throws IOException {
        for (String port : new String[] {"70000", "65536", "-2", "-5"}) {
            refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("http.port", port))
                    .hasMessageContaining("http.port").hasMessageContaining("'" + port + "'").hasMessageContaining("65535");
        }
        for (String port : new String[] {"-1", "0", "8080", "65535"}) {
            assertThat(load(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("http.port", port)).integer(Settings.HTTP_PORT)).isEqualTo(Integer.parseInt(port));
        }
        refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("broker.port", "65536")).hasMessageContaining("broker.port");
    }

    // schema inference

    @Test
    void aSchemaHintWithABadTypeNamesTheKey() {
        refused(PipelineSpecTest.QUICKSTART.replace("    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n", ""), Map.of(),
                Map.of("source.files.schemaHints", "ts TIMESTMP", "source.files.schemaEvolution", "none"))
                .hasMessageContaining("key 'source.files.schemaHints'").hasMessageContaining("TIMESTMP")
                .hasMessageContaining("e.g. \"ts TIMESTAMP");
    }

    @Test
    void schemaHintsBesideAGivenSchemaAreRefused() {
        refused(PipelineSpecTest.QUICKSTART, Map.of(), Map.of("source.files.schemaHints", "ts TIMESTAMP"))
                .hasMessageContaining("key 'source.files.schemaHints'").hasMessageContaining("source.files.schema is given");
    }

    private static final String KAFKA_AGGREGATE = """
            name: sales
            source:
              kafka:
                topics: [sales]
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            sink:
              delta:
                path: agg/
            """;

    @Test
    void anAggregationOverAKafkaSourceTakesTheSpecAStartElsewhereARateLimitAndCloseIdleWindowsAfter() throws IOException {
        assertThat(load(KAFKA_AGGREGATE, Map.of(), Map.of()).name()).isEqualTo("sales");
        assertThat(load(KAFKA_AGGREGATE.replace("    topics: [sales]\n", "    topics: [sales]\n    startingOffsets: latest\n"), Map.of(),
                Map.of()).name()).isEqualTo("sales");
        assertThat(load(KAFKA_AGGREGATE.replace("    topics: [sales]\n", "    topics: [sales]\n    maxOffsetsPerTrigger: 100\n"), Map.of(),
                Map.of()).has("source.kafka.maxOffsetsPerTrigger")).isTrue();
        assertThat(load(KAFKA_AGGREGATE.replace("  select: { t: sum(amt) }\n", "  select: { t: sum(amt) }\n  closeIdleWindowsAfter: 1 minute\n"),
                Map.of(), Map.of()).has("aggregate.closeIdleWindowsAfter")).isTrue();
        String both = KAFKA_AGGREGATE.replace("aggregate:\n", "transform:\n  dropDuplicates: { keys: [id, user] }\naggregate:\n")
                .replace("  select: { t: sum(amt) }\n", "  select: { t: sum(amt) }\n  closeIdleWindowsAfter: 1 minute\n");
        refused(both).hasMessageContaining("aggregate.closeIdleWindowsAfter").hasMessageContaining("line 14")
                .hasMessageContaining("transform.dropDuplicates has no watermark").hasMessageContaining("transform.dropDuplicates.eventTime");
        assertThat(load(both.replace("{ keys: [id, user] }", "{ keys: [id, user], eventTime: ts, watermark: 5 minutes }"), Map.of(),
                Map.of()).has("aggregate.closeIdleWindowsAfter")).isTrue();
        refused(KAFKA_AGGREGATE.replace("    topics: [sales]\n", "    topics: [sales]\n    schemaEvolution: addNewColumns\n"))
                .hasMessageContaining("key 'source.kafka.schemaEvolution' is not taken with");
    }

    @Test
    void dropDuplicatesOverAKafkaSourceTakesTheSpecAStartElsewhereAndARateLimit() throws IOException {
        String dedup = KAFKA_AGGREGATE.substring(0, KAFKA_AGGREGATE.indexOf("aggregate:"))
                + "transform:\n  dropDuplicates:\n    keys: [id]\nsink:\n  delta:\n    path: out/\n";
        assertThat(load(dedup, Map.of(), Map.of()).name()).isEqualTo("sales");
        assertThat(load(dedup.replace("    topics: [sales]\n", "    topics: [sales]\n    startingTimestamp: 1000\n"), Map.of(), Map.of())
                .name()).isEqualTo("sales");
        assertThat(load(dedup.replace("    topics: [sales]\n", "    topics: [sales]\n    maxOffsetsPerTrigger: 100\n"), Map.of(), Map.of())
                .has("source.kafka.maxOffsetsPerTrigger")).isTrue();
        String both = KAFKA_AGGREGATE.replace("aggregate:\n", "transform:\n  dropDuplicates: { keys: [id, user] }\naggregate:\n");
        assertThat(load(both, Map.of(), Map.of()).has("transform.dropDuplicates.keys")).isTrue(); // before the aggregation, as for files
        assertThat(load(both.replace("    topics: [sales]\n", "    topics: [sales]\n    maxOffsetsPerTrigger: 100\n"), Map.of(), Map.of())
                .has("source.kafka.maxOffsetsPerTrigger")).isTrue();
    }
}
