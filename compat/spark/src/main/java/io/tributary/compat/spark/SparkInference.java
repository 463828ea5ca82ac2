package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's schema inference on the golden inference cases: for each {@code golden/inference/<case>/}
 * it lets Spark's reader infer the schema of {@code in/} with {@code case.json}'s format and options
 * ({@code spark.read.format(F).options(O).load(in).schema()}), applies {@code case.json}'s
 * {@code hints} as Auto Loader's {@code schemaHints} are documented (a hinted column takes the hint's
 * type; a hinted column the data lacks is added at the end; Spark itself has no hints), and writes
 * the schema as one DDL line to {@code spark-schema.txt}; then reads {@code in/} with that schema as
 * {@link SparkFormats} does and writes the rows to {@code spark.jsonl}.
 *
 * <p>Usage: {@code SparkInference GOLDEN_INFERENCE_DIR [CASE...]}
 */
public final class SparkInference {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkInference() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-inference", SparkInference::run);
    }

    private static void run(SparkSession spark, Path dir) throws IOException {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String format = spec.get("format").asText();
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        Path in = dir.resolve("in");
        StructType inferred = spark.read().format(format).options(options).load(in.toString()).schema();
        StructType schema = inferred;
        if (spec.hasNonNull("hints")) {
            schema = hinted(inferred, StructType.fromDDL(spec.get("hints").asText()));
        }
        String ddl = ddl(schema);
        Files.writeString(dir.resolve("spark-schema.txt"), ddl + "\n");
        int n = SparkFormats.write(spark, format, ddl, options, in, dir.resolve("spark.jsonl"));
        System.out.println(dir.getFileName() + ": " + ddl + " (inferred " + ddl(inferred) + "); " + n + " rows");
    }

    /** Auto Loader's schemaHints: the hinted columns' types (matched case-insensitively), hinted columns absent at the end. */
    static StructType hinted(StructType inferred, StructType hints) {
        List<StructField> out = new ArrayList<>();
        for (StructField f : inferred.fields()) {
            StructField h = find(hints, f.name());
            out.add(h == null ? f : new StructField(f.name(), h.dataType(), true, f.metadata()));
        }
        for (StructField h : hints.fields()) {
            if (find(inferred, h.name()) == null) {
                out.add(h);
            }
        }
        return new StructType(out.toArray(StructField[]::new));
    }

    private static StructField find(StructType t, String name) {
        for (StructField f : t.fields()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        return null;
    }

    /** The schema as Tributary's DDL writes it: {@code name TYPE, ...}, types as Spark's SQL names them. */
    static String ddl(StructType schema) {
        List<String> cols = new ArrayList<>();
        for (StructField f : schema.fields()) {
            cols.add(f.name() + " " + f.dataType().sql());
        }
        return String.join(", ", cols);
    }
}
