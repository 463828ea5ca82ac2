package io.tributary.kafka.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
                cells.add(canonical(row[i], format.columns().fields().get(i).type()));
            }
            rows.add(String.join("\t", cells));
        }
        assertThat(rows).containsExactlyElementsOf(spark.subList(1, spark.size()));
    }

    /** A value as compat/spark's SparkExpressions.canonical writes Spark's. */
    static String canonical(Object v, DataType t) {
        if (v == null) {
            return "\\N";
        }
        return switch (t.kind()) {
            case STRING -> escape((String) v);
            case BINARY -> {
                StringBuilder sb = new StringBuilder("0x");
                for (byte x : (byte[]) v) {
                    sb.append(String.format("%02X", x));
                }
                yield sb.toString();
            }
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L), Math.floorMod((Long) v, 1_000_000L) * 1000).toString();
            case TIMESTAMP_NTZ -> LocalDateTime.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L),
                    (int) Math.floorMod((Long) v, 1_000_000L) * 1000, ZoneOffset.UTC).toString();
            case STRUCT -> {
                List<String> parts = new ArrayList<>();
                Object[] fields = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    parts.add(canonical(fields[i], t.struct().fields().get(i).type()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            case ARRAY -> {
                List<String> parts = new ArrayList<>();
                for (Object o : (List<?>) v) {
                    parts.add(canonical(o, t.element()));
                }
                yield "[" + String.join(", ", parts) + "]";
            }
            case MAP -> {
                List<String> parts = new ArrayList<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    parts.add(escape((String) e.getKey()) + " -> " + canonical(e.getValue(), t.valueType()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            default -> v.toString();
        };
    }

    private static String escape(String s) {
        String e = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
        return e.startsWith("!") ? "\\" + e : e;
    }
}
