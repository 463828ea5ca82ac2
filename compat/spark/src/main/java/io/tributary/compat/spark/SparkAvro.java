package io.tributary.compat.spark;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's {@code from_avro(value, jsonFormatSchema).*} of the golden Avro case ({@code golden/avro/}): each line of
 * {@code records.json} (a record in Avro's JSON encoding of {@code schema.avsc}) made binary by Apache Avro's own
 * encoder, read by Spark; {@code spark.txt} holds the columns' DDL, then a line per row of its values
 * ({@link SparkExpressions#canonical}) separated by tabs.
 *
 * <p>Usage: {@code SparkAvro GOLDEN_DIR avro}
 */
public final class SparkAvro {
    private SparkAvro() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-avro", SparkAvro::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        String schemaText = Files.readString(dir.resolve("schema.avsc"));
        Schema schema = new Schema.Parser().parse(schemaText);
        List<Row> values = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("records.json"), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Object datum = new GenericDatumReader<>(schema).read(null, DecoderFactory.get().jsonDecoder(schema, line));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<Object>(schema).write(datum, encoder);
            encoder.flush();
            values.add(RowFactory.create((Object) out.toByteArray()));
        }
        Dataset<Row> binary = spark.createDataFrame(values, new StructType().add("value", DataTypes.BinaryType));
        Dataset<Row> rows = binary.select(org.apache.spark.sql.avro.functions.from_avro(functions.col("value"), schemaText).as("v"))
                .select("v.*");
        List<String> out = new ArrayList<>();
        out.add(rows.schema().toDDL());
        for (Row r : rows.collectAsList()) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                cells.add(SparkExpressions.canonical(r.get(i)));
            }
            out.add(String.join("\t", cells));
        }
        Files.write(dir.resolve("spark.txt"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + (out.size() - 1) + " rows of " + rows.schema().size() + " columns");
    }
}
