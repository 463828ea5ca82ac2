package io.tributary.kafka.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.SparkValues;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The golden Avro case ({@code golden/avro}): Spark 4.2's {@code from_avro(value, schema).*} of
 * records of every Avro type, recorded by compat/spark's {@code SparkAvro}; the Kafka source's
 * Avro format gives the same columns (nullability aside: every column nullable, as the Delta table
 * Spark writes from them) and the same values.
 */
class GoldenAvroTest {
    private static String golden(String name) throws IOException {
        try (InputStream in = GoldenAvroTest.class.getClassLoader().getResourceAsStream("golden/avro/" + name)) {
            assertThat(in).as("golden/avro/%s on the classpath", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A record of Avro's JSON encoding as Avro's binary encoding, both by Apache Avro. */
    private static byte[] binary(org.apache.avro.Schema schema, String json) throws IOException {
        Object datum = new GenericDatumReader<>(schema).read(null, DecoderFactory.get().jsonDecoder(schema, json));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<Object>(schema).write(datum, e);
        e.flush();
        return out.toByteArray();
    }

    @Test
    void everyAvroTypeReadsAsSparksFromAvroReadsIt() throws Exception {
        org.apache.avro.Schema schema = AvroFormat.parse(golden("schema.avsc"));
        List<String> spark = golden("spark.txt").lines().toList();
        AvroFormat format = new AvroFormat(schema, null);

        Schema sparkColumns = Schema.parse(spark.get(0).replace(" NOT NULL", ""));
        assertThat(format.columns().toDdl()).isEqualTo(sparkColumns.toDdl());
        assertThat(format.columns().fields()).allMatch(Field::nullable);

        List<String> rows = new ArrayList<>();
        for (String json : golden("records.json").lines().filter(l -> !l.isBlank()).toList()) {
            Object[] row = format.row("t", 0, rows.size(), binary(schema, json));
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < row.length; i++) {
                cells.add(SparkValues.canonical(row[i], format.columns().fields().get(i).type()));
            }
            rows.add(String.join("\t", cells));
        }
        assertThat(rows).containsExactlyElementsOf(spark.subList(1, spark.size()));
    }
}
