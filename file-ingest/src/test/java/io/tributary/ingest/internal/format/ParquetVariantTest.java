package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.Transform;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet file Spark 4.2 wrote with VARIANT columns ({@code golden/variant/parquet-source/in/}, by compat/spark's
 * {@code SparkVariantParquet}: at the top, in a struct, as an array's element, and two Spark shredded into typed columns, one of them with a row of another shape)
 * reads as Spark's streaming Parquet source reads it: the same values ({@code spark.tsv}), the same inferred schema
 * ({@code inferred-schema.txt}) and rows with it ({@code spark-inferred.tsv}), and a VARIANT read as STRING refused, as
 * Spark fails the read ({@code spark-string.tsv}).
 */
class ParquetVariantTest {
    private static final String DIR = "golden/variant/parquet-source/";
    /** The same rows Spark 4.2 wrote without the VARIANT annotation (by {@code SparkVariantParquetUnannotated}). */
    private static final String UNANNOTATED = "golden/variant/parquet-unannotated/";
    private static final String BARE = UNANNOTATED + "bare/";
    private static final Schema DECLARED = Schema.parseWithVariant("id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>,"
            + " typed VARIANT, mixed VARIANT");
    private static final List<String> QUERY = List.of("id", "to_json(v)", "schema_of_variant(v)", "to_json(s)", "to_json(arr)",
            "to_json(typed)", "schema_of_variant(typed)", "to_json(mixed)", "schema_of_variant(mixed)");
    private static final List<String> INFERRED_QUERY = List.of("id", "to_json(v)", "to_json(s)", "to_json(arr)", "to_json(typed)",
            "to_json(mixed)");

    @TempDir
    Path tmp;

    @Test
    void sparksParquetVariantsReadWithADeclaredSchema() throws IOException {
        assertThat(read(DIR, DECLARED, QUERY)).isEqualTo(golden(DIR, "spark.tsv"));
    }

    @Test
    void theInferredSchemaHasSparksVariantColumns() throws IOException {
        Schema inferred = inferred(DIR);
        assertThat(inferred.toDdl()).isEqualTo(Schema.parseWithVariant(golden(DIR, "inferred-schema.txt").get(0)).toDdl());
        assertThat(read(DIR, inferred, QUERY)).isEqualTo(golden(DIR, "spark-inferred.tsv"));
    }

    @Test
    void variantsWrittenWithoutTheAnnotationReadAsVariantsWithADeclaredSchema() throws IOException {
        assertThat(read(UNANNOTATED, DECLARED, QUERY)).isEqualTo(golden(UNANNOTATED, "spark.tsv"))
                .isEqualTo(golden(DIR, "spark.tsv"));
    }

    @Test
    void variantsWrittenWithoutTheAnnotationAreInferredAsVariantsFromSparksSchemaInTheFooter() throws IOException {
        Schema inferred = inferred(UNANNOTATED);
        assertThat(inferred.toDdl()).isEqualTo(Schema.parseWithVariant(golden(UNANNOTATED, "inferred-schema.txt").get(0)).toDdl());
        assertThat(read(UNANNOTATED, inferred, INFERRED_QUERY)).isEqualTo(golden(UNANNOTATED, "spark-inferred.tsv"));
    }

    @Test
    void variantsWithoutTheAnnotationNorSparksSchemaInTheFooterReadAsVariantsWithADeclaredSchemaAndAreInferredAsStructs()
            throws IOException {
        assertThat(read(BARE, DECLARED, QUERY)).isEqualTo(golden(UNANNOTATED, "bare-spark.tsv")).isEqualTo(golden(DIR, "spark.tsv"));
        Schema inferred = inferred(BARE);
        assertThat(inferred.toDdl()).isEqualTo(Schema.parse(golden(UNANNOTATED, "bare-inferred-schema.txt").get(0)).toDdl());
        assertThat(read(BARE, inferred, INFERRED_QUERY)).isEqualTo(golden(UNANNOTATED, "bare-spark-inferred.tsv"));
    }

    @Test
    void aVariantReadAsStringIsRefusedAsSparkRefusesIt() throws IOException {
        assertThat(golden(DIR, "spark-string.tsv").get(0)).startsWith("ERROR ").contains("to be variant type but found STRING");
        assertThatThrownBy(() -> read(DIR, Schema.parse("id INT, v STRING"), List.of("id", "v")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("file part-00000.parquet: column 'v' is Parquet optional group v (VARIANT(1))")
                .hasMessageContaining("which cannot be read as STRING");
    }

    private Schema inferred(String dir) throws IOException {
        Path file = file(dir);
        List<Field> fields = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            var spark = ParquetColumns.sparkSchema(reader.getFooter().getFileMetaData().getKeyValueMetaData());
            for (Type t : reader.getFooter().getFileMetaData().getSchema().getFields()) {
                DataType type = ParquetColumns.type(t, ParquetColumns.field(spark, t.getName()), "part-00000.parquet");
                fields.add(new Field(t.getName(), type, true));
            }
        }
        return new Schema(fields);
    }

    private List<String> read(String dir, Schema schema, List<String> select) throws IOException {
        Path file = file(dir);
        IngestConfig config = IngestConfig.builder("variants", tmp, schema).format("parquet").build();
        Transform query = Transform.compile(schema, null, select);
        List<String> out = new ArrayList<>();
        try (RawInput raw = new RawInput(Files.newInputStream(file));
             RecordReader records = new RecordReaders(config).open("part-00000.parquet", raw, file)) {
            while (records.next()) {
                List<String> cells = new ArrayList<>();
                for (Object v : query.apply(records.row())) {
                    cells.add(v == null ? "NULL" : String.valueOf(v));
                }
                out.add(String.join("\t", cells));
            }
        }
        return out;
    }

    private Path file(String dir) throws IOException {
        Path file = tmp.resolve(dir.replace('/', '-')).resolve("part-00000.parquet");
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent());
            String in = dir.equals(BARE) ? dir : dir + "in/";
            try (InputStream stream = ParquetVariantTest.class.getClassLoader().getResourceAsStream(in + "part-00000.parquet")) {
                Files.copy(stream, file);
            }
        }
        return file;
    }

    private static List<String> golden(String dir, String name) throws IOException {
        try (InputStream in = ParquetVariantTest.class.getClassLoader().getResourceAsStream(dir + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
