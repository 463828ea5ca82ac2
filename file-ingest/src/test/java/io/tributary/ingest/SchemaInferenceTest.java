package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The schema Spark's readers would infer from the first files, and the hints that override it. */
class SchemaInferenceTest {
    @TempDir
    Path in;

    private Schema infer(String format, Map<String, String> options, String hints) {
        return SchemaInference.infer(IngestConfig.builder("p", in, FileFormat.textSchema()).format(format).formatOptions(options).build(), hints);
    }

    private void write(String name, String... lines) throws IOException {
        Files.writeString(in.resolve(name), String.join("\n", lines) + "\n");
    }

    @Test
    void jsonIntegersAreBigintDecimalsDoubleTimestampsStringAndColumnsSortedAsSparkDoes() throws IOException {
        write("a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5, \"ts\": \"2026-01-01T10:00:00Z\", \"s\": {\"b\": true, \"a\": [1, 2.5]}}",
                "not json at all",
                "{\"id\": 2, \"amt\": 7.25, \"m\": null, \"tags\": []}");
        assertThat(infer("json", Map.of(), null).toDdl()).isEqualTo(
                "amt DOUBLE, id BIGINT, m STRING, s STRUCT<a: ARRAY<DOUBLE>, b: BOOLEAN>, tags ARRAY<STRING>, ts STRING, user STRING");
    }

    @Test
    void jsonInferTimestampMakesTopLevelTimestampTextTimestamp() throws IOException {
        write("a.json", "{\"ts\": \"2026-01-01T10:00:00Z\", \"mixed\": \"2026-01-01 10:00:00\", \"d\": \"2026-01-01T10:00:00\"}",
                "{\"mixed\": \"soon\", \"d\": null}");
        assertThat(infer("json", Map.of("inferTimestamp", "true"), null).toDdl()).isEqualTo("d TIMESTAMP, mixed STRING, ts TIMESTAMP");
        assertThat(infer("json", Map.of("inferTimestamp", "true", "timestampFormat", "dd/MM/yyyy HH:mm"), null).toDdl())
                .isEqualTo("d STRING, mixed STRING, ts STRING");
    }

    @Test
    void jsonFilesAreMergedInOrderAndConflictingTypesBecomeString() throws IOException {
        write("1.json", "{\"a\": 1, \"b\": 1}");
        write("2.json", "{\"a\": \"x\", \"c\": false}");
        assertThat(infer("json", Map.of(), null).toDdl()).isEqualTo("a STRING, b BIGINT, c BOOLEAN");
    }

    @Test
    void compressedAndMultiLineJsonAreRead() throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(in.resolve("a.json.gz")))) {
            out.write("[{\"x\": 1},\n {\"y\": \"z\"}]".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(infer("json", Map.of("multiLine", "true"), null).toDdl()).isEqualTo("x BIGINT, y STRING");
    }

    @Test
    void csvIsStringUnlessInferSchemaThenSparksTypesByColumn() throws IOException {
        write("a.csv", "id,big,amt,ok,day,when,name", "1,3000000000,5,true,2026-01-01,2026-01-01T10:00:00Z,a",
                "2,4,7.5,false,2026-01-02,2026-01-01 10:05:00,", "x3,,,,2026-01-03 00:00:00,,c");
        assertThat(infer("csv", Map.of("header", "true"), null).toDdl())
                .isEqualTo("id STRING, big STRING, amt STRING, ok STRING, day STRING, when STRING, name STRING");
        assertThat(infer("csv", Map.of("header", "true", "inferSchema", "true"), null).toDdl())
                .isEqualTo("id STRING, big BIGINT, amt DOUBLE, ok BOOLEAN, day TIMESTAMP, when TIMESTAMP, name STRING");
    }

    @Test
    void csvIntegersPastBigintAreDecimalsAsInSpark() throws IOException {
        write("a.csv", "12345678901234567890123,1,5", "7,12345678901234567890123,2.5");
        assertThat(infer("csv", Map.of("inferSchema", "true"), null).toDdl()).isEqualTo("_c0 DECIMAL(23,0), _c1 DECIMAL(23,0), _c2 DOUBLE");
    }

    @Test
    void csvWithoutAHeaderNamesColumnsAsSparkDoes() throws IOException {
        write("a.csv", "1;a", "2;b;extra");
        assertThat(infer("csv", Map.of("sep", ";", "inferSchema", "true"), null).toDdl()).isEqualTo("_c0 INT, _c1 STRING, _c2 STRING");
    }

    @Test
    void hintsSetTheTypesOfTheColumnsTheyNameAndAddTheOthers() throws IOException {
        write("a.json", "{\"id\": 1, \"ts\": \"2026-01-01T10:00:00Z\"}");
        assertThat(infer("json", Map.of(), "TS TIMESTAMP, id INT, extra ARRAY<STRING>").toDdl())
                .isEqualTo("id INT, ts TIMESTAMP, extra ARRAY<STRING>");
    }

    @Test
    void badInputIsOneLineNamingTheKeyOrFolder() throws IOException {
        assertThatThrownBy(() -> infer("json", Map.of(), null)).isInstanceOf(TributaryException.class)
                .hasMessageContaining(in.toString()).hasMessageContaining("holds no file to infer it from")
                .hasMessageContaining("source.files.schema").hasMessageNotContaining("\n");
        write("a.json", "{\"id\": 1}");
        assertThatThrownBy(() -> infer("json", Map.of(), "id INTEGR")).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.schemaHints: ").hasMessageNotContaining("\n");
        write("a.json", "[1, 2]");
        assertThatThrownBy(() -> infer("json", Map.of(), null)).hasMessageContaining("have no columns to infer it from");
    }
}
