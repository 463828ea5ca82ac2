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
    private static final List<String> QUERY = List.of("id", "to_json(v)", "schema_of_variant(v)", "to_json(s)", "to_json(arr)",
            "to_json(typed)", "schema_of_variant(typed)", "to_json(mixed)", "schema_of_variant(mixed)");

    @TempDir
    Path tmp;

    @Test
    void sparksParquetVariantsReadWithADeclaredSchema() throws IOException {
        Schema schema = Schema.parseWithVariant("id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, typed VARIANT, mixed VARIANT");
        assertThat(read(schema)).isEqualTo(golden("spark.tsv"));
    }

    @Test
    void theInferredSchemaHasSparksVariantColumns() throws IOException {
        Schema inferred = inferred();
        assertThat(inferred.toDdl()).isEqualTo(Schema.parseWithVariant(golden("inferred-schema.txt").get(0)).toDdl());
        assertThat(read(inferred)).isEqualTo(golden("spark-inferred.tsv"));
    }

    @Test
    void aVariantReadAsStringIsRefusedAsSparkRefusesIt() throws IOException {
        assertThat(golden("spark-string.tsv").get(0)).startsWith("ERROR ").contains("to be variant type but found STRING");
        assertThatThrownBy(() -> read(Schema.parse("id INT, v STRING"), List.of("id", "v")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("file part-00000.parquet: column 'v' is Parquet optional group v (VARIANT(1))")
                .hasMessageContaining("which cannot be read as STRING");
    }

    private Schema inferred() throws IOException {
        Path file = file();
        List<Field> fields = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            for (Type t : reader.getFooter().getFileMetaData().getSchema().getFields()) {
                DataType type = ParquetColumns.type(t, "part-00000.parquet");
                fields.add(new Field(t.getName(), type, true));
            }
        }
        return new Schema(fields);
    }

    private List<String> read(Schema schema) throws IOException {
        return read(schema, QUERY);
    }

    private List<String> read(Schema schema, List<String> select) throws IOException {
        Path file = file();
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

    private Path file() throws IOException {
        Path file = tmp.resolve("part-00000.parquet");
        if (!Files.exists(file)) {
            try (InputStream in = ParquetVariantTest.class.getClassLoader().getResourceAsStream(DIR + "in/part-00000.parquet")) {
                Files.copy(in, file);
            }
        }
        return file;
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = ParquetVariantTest.class.getClassLoader().getResourceAsStream(DIR + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
