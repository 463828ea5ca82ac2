package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet file Spark 4.2 wrote with VARIANT columns ({@code golden/variant/parquet-source/in/}: at the top, in a struct,
 * as an array's element, and two Spark shredded, one with a row of another shape) through {@code source.files} with {@code format: parquet} to a Delta table:
 * the table's columns are VARIANT and its rows Spark's streaming read of the same file gave ({@code spark.tsv} with the
 * schema in the spec, {@code spark-inferred.tsv} and {@code inferred-schema.txt} without one).
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ParquetVariantPipelineTest {
    private static final String DIR = "parquet-source/";
    /** The same rows Spark wrote without the VARIANT annotation, naming the type only in the Spark schema of the footer. */
    private static final String UNANNOTATED = "parquet-unannotated/";
    private static final String SCHEMA = "id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, typed VARIANT, mixed VARIANT";
    private static final List<String> QUERY = List.of("id", "to_json(v)", "schema_of_variant(v)", "to_json(s)", "to_json(arr)",
            "to_json(typed)", "schema_of_variant(typed)", "to_json(mixed)", "schema_of_variant(mixed)");

    @TempDir
    Path dir;

    @Test
    void sparksParquetVariantsLandAsVariantColumnsWithTheSchemaInTheSpec() throws Exception {
        run(DIR, "    schema: \"" + SCHEMA + "\"\n");
        assertThat(VariantPipelines.tableDdl(table())).isEqualTo(SCHEMA);
        assertThat(tableRows()).isEqualTo(golden(DIR + "spark.tsv"));
    }

    @Test
    void variantsWrittenWithoutTheAnnotationAreInferredAsVariantsAsSparkInfersThem() throws Exception {
        run(UNANNOTATED, "");
        assertThat(VariantPipelines.tableDdl(table()))
                .isEqualTo(Schema.parseWithVariant(golden(UNANNOTATED + "inferred-schema.txt").get(0)).toDdl())
                .isEqualTo(SCHEMA);
        assertThat(tableRows()).isEqualTo(golden(UNANNOTATED + "spark.tsv")); // Spark's read of the file as VARIANT columns
    }

    @Test
    void anInferredSchemaReadsTheVariantColumnsAsSparkInfersThem() throws Exception {
        run(DIR, "");
        assertThat(VariantPipelines.tableDdl(table())).isEqualTo(Schema.parseWithVariant(golden(DIR + "inferred-schema.txt").get(0)).toDdl());
        assertThat(tableRows()).isEqualTo(golden(DIR + "spark-inferred.tsv"));
    }

    private void run(String from, String schemaLine) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "part-00000.parquet", VariantPipelines.goldenBytes(from + "in/part-00000.parquet"));
        VariantPipelines.run(VariantPipelines.spec(dir, """
                name: parquetvariant
                source:
                  files:
                    path: in/
                    format: parquet
                %ssink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(schemaLine)));
    }

    private Path table() {
        return dir.resolve("out");
    }

    private List<String> tableRows() {
        return VariantPipelines.tableRows(table(), VariantPipelines.tableDdl(table()), QUERY);
    }

    private static List<String> golden(String name) throws IOException {
        return VariantPipelines.golden(name);
    }
}
