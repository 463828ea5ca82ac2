package io.tributary.compat.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Records what Spark 4.2 reads from Parquet VARIANT columns written without the VARIANT logical type annotation, as Spark
 * 4.0 wrote them and Spark 4.2 does with {@code spark.sql.parquet.variant.annotateLogicalType.enabled} false: each VARIANT a
 * plain group of {@code metadata} and {@code value} binaries (and {@code typed_value} where shredded), for {@code
 * golden/variant/parquet-unannotated}; only these files.
 *
 * <p>{@code SparkVariantParquetUnannotated DIR}: the rows of {@link SparkVariantParquet} ({@code DIR/cases.txt}, {@link
 * SparkVariantParquet#WRITE}) written so, copied to {@code DIR/parquet-unannotated/in/part-00000.parquet}, and in {@code
 * DIR/parquet-unannotated/}:
 * <ul>
 *   <li>{@code parquet-schema.txt}: the file's Parquet schema;</li>
 *   <li>{@code inferred-schema.txt}: the schema Spark's streaming Parquet source infers from it, as DDL;</li>
 *   <li>{@code spark-inferred.tsv}: the streaming read with that schema into a Delta table, then {@link #INFERRED_QUERY} by id;</li>
 *   <li>{@code spark.tsv}: the streaming read with the schema {@link SparkVariantParquet#SCHEMA}, then {@link
 *   SparkVariantParquet#QUERY}, as {@code parquet-source/spark.tsv} records it for the annotated file.</li>
 * </ul>
 *
 * <p>{@code SparkVariantParquetUnannotated DIR bare}: that file's row groups copied by parquet-hadoop into {@code
 * DIR/parquet-unannotated/bare/part-00000.parquet} without the footer's key-value metadata (where Spark keeps the schema it
 * wrote, {@code org.apache.spark.sql.parquet.row.metadata}), as a writer other than Spark leaves a file, and Spark's reads of
 * it: {@code bare-inferred-schema.txt}, {@code bare-spark-inferred.tsv} and {@code bare-spark.tsv}, as above.
 */
public final class SparkVariantParquetUnannotated {
    static final String INFERRED_QUERY = "SELECT id, to_json(v), to_json(s), to_json(arr), to_json(typed), to_json(mixed)"
            + " FROM parquet_table ORDER BY id";

    private SparkVariantParquetUnannotated() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: SparkVariantParquetUnannotated DIR [bare]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        Path out = dir.resolve("parquet-unannotated");
        if (args.length > 1 && args[1].equals("bare")) {
            bare(out);
            return;
        }
        Files.createDirectories(out);
        SparkSession spark = SparkFixtures.session("tributary-variant-parquet-unannotated");
        Path work = Files.createTempDirectory("variant-parquet-unannotated-");
        try {
            spark.conf().set("spark.sql.parquet.variant.annotateLogicalType.enabled", "false");
            Path in = SparkVariantParquet.write(spark, dir, out, work);
            Files.writeString(out.resolve("parquet-schema.txt"), SparkVariants.parquetSchema(in));
            spark.conf().set("spark.sql.streaming.schemaInference", "true");
            Dataset<Row> inferred = spark.readStream().format("parquet").load(in.toString());
            Files.writeString(out.resolve("inferred-schema.txt"), inferred.schema().toDDL() + "\n");
            List<String> inferredRows;
            try {
                inferredRows = SparkVariantParquet.stream(spark, inferred, work.resolve("inferred"), INFERRED_QUERY);
            } catch (Exception e) {
                inferredRows = List.of(SparkVariantParquet.error(e));
            }
            Files.write(out.resolve("spark-inferred.tsv"), inferredRows);
            spark.conf().set("spark.sql.streaming.schemaInference", "false");
            List<String> declared;
            try {
                declared = SparkVariantParquet.stream(spark, spark.readStream().format("parquet").schema(SparkVariantParquet.SCHEMA)
                        .load(in.toString()), work.resolve("declared"), SparkVariantParquet.QUERY);
            } catch (Exception e) {
                declared = List.of(SparkVariantParquet.error(e));
            }
            Files.write(out.resolve("spark.tsv"), declared);
        } finally {
            spark.stop();
            SparkFixtures.deleteTree(work);
        }
        for (String f : List.of("parquet-schema.txt", "inferred-schema.txt", "spark.tsv", "spark-inferred.tsv")) {
            System.out.println("== " + f + "\n" + Files.readString(out.resolve(f)));
        }
    }

    /** The file of {@code out/in/} without its footer's key-value metadata, and Spark's reads of it. */
    private static void bare(Path out) throws Exception {
        Path bare = out.resolve("bare");
        SparkFixtures.deleteTree(bare);
        Files.createDirectories(bare);
        Path source = out.resolve("in/part-00000.parquet");
        Path target = bare.resolve("part-00000.parquet");
        org.apache.parquet.schema.MessageType schema;
        try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(source))) {
            schema = r.getFooter().getFileMetaData().getSchema();
        }
        org.apache.parquet.hadoop.ParquetFileWriter w = new org.apache.parquet.hadoop.ParquetFileWriter(
                new org.apache.parquet.io.LocalOutputFile(target), schema, org.apache.parquet.hadoop.ParquetFileWriter.Mode.CREATE,
                128L * 1024 * 1024, 0);
        w.start();
        w.appendFile(new org.apache.parquet.io.LocalInputFile(source));
        w.end(java.util.Map.of());
        SparkSession spark = SparkFixtures.session("tributary-variant-parquet-bare");
        Path work = Files.createTempDirectory("variant-parquet-bare-");
        try {
            spark.conf().set("spark.sql.streaming.schemaInference", "true");
            Dataset<Row> inferred = spark.readStream().format("parquet").load(bare.toString());
            Files.writeString(out.resolve("bare-inferred-schema.txt"), inferred.schema().toDDL() + "\n");
            List<String> inferredRows;
            try {
                inferredRows = SparkVariantParquet.stream(spark, inferred, work.resolve("inferred"), INFERRED_QUERY);
            } catch (Exception e) {
                inferredRows = List.of(SparkVariantParquet.error(e));
            }
            Files.write(out.resolve("bare-spark-inferred.tsv"), inferredRows);
            spark.conf().set("spark.sql.streaming.schemaInference", "false");
            List<String> declared;
            try {
                declared = SparkVariantParquet.stream(spark, spark.readStream().format("parquet").schema(SparkVariantParquet.SCHEMA)
                        .load(bare.toString()), work.resolve("declared"), SparkVariantParquet.QUERY);
            } catch (Exception e) {
                declared = List.of(SparkVariantParquet.error(e));
            }
            Files.write(out.resolve("bare-spark.tsv"), declared);
        } finally {
            spark.stop();
            SparkFixtures.deleteTree(work);
        }
        for (String f : List.of("bare-inferred-schema.txt", "bare-spark.tsv", "bare-spark-inferred.tsv")) {
            System.out.println("== " + f + "\n" + Files.readString(out.resolve(f)));
        }
    }
}
