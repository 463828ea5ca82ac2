package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's own readers on the golden format cases: for each {@code golden/formats/<case>/} it reads
 * {@code in/} with {@code case.json}'s format, schema and options (plus a {@code _corrupt_record}
 * column, mode PERMISSIVE) and writes what Spark read to {@code spark.jsonl}: one line per row,
 * {@code {"row": {...}}} for a row Spark read whole (values as {@code to_json} writes them,
 * timestamps with six fraction digits, nulls kept) or {@code {"corrupt": "..."}} for a malformed
 * record (Spark's corrupt-record text), sorted. A case may say {@code "generate": ["SELECT ..."]}:
 * each query's result is first written as one Parquet file in {@code in/} by Spark itself.
 *
 * <p>Usage: {@code SparkFormats GOLDEN_FORMATS_DIR [CASE...]}
 */
public final class SparkFormats {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkFormats() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-formats", SparkFormats::run);
    }

    private static void run(SparkSession spark, Path dir) throws IOException {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String format = spec.get("format").asText();
        Path in = dir.resolve("in");
        if (spec.has("generate")) {
            generate(spark, spec.get("generate"), in);
        }
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        int n = write(spark, format, spec.get("schema").asText(), options, in, dir.resolve("spark.jsonl"));
        System.out.println(dir.getFileName() + ": " + n + " rows");
    }

    /**
     * Reads {@code in} as {@code format} with {@code ddl} (and a corrupt-record column), PERMISSIVE, and
     * writes the rows to {@code target} as described above; returns how many.
     */
    static int write(SparkSession spark, String format, String ddl, Map<String, String> options, Path in, Path target)
            throws IOException {
        StructType schema = StructType.fromDDL(ddl);
        boolean corruptColumn = !format.equals("parquet") && !format.equals("text");
        if (corruptColumn) {
            schema = schema.add("_corrupt_record", "string");
        }
        Dataset<Row> df = spark.read().format(format).schema(schema).options(options).option("mode", "PERMISSIVE").load(in.toString());
        df = df.cache();
        Column[] data = java.util.Arrays.stream(StructType.fromDDL(ddl).fieldNames()).map(n -> functions.col("`" + n + "`"))
                .toArray(Column[]::new);
        int count = writeRows(df, data, corruptColumn, target);
        df.unpersist();
        return count;
    }

    /**
     * Writes {@code rows} to {@code target} as sorted JSON lines: each row's {@code data} columns as {@code {"row": ...}},
     * or with {@code corrupt} a row whose {@code _corrupt_record} is set as {@code {"corrupt": text}}; returns how many.
     */
    static int writeRows(Dataset<Row> rows, Column[] data, boolean corrupt, Path target) throws IOException {
        Map<String, String> jsonOptions = Map.of("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
                "timestampNTZFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS", "ignoreNullFields", "false");
        Dataset<Row> out = rows.select(functions.to_json(functions.struct(data), jsonOptions).alias("j"),
                corrupt ? functions.col("_corrupt_record") : functions.lit(null).cast("string").alias("_corrupt_record"));
        List<String> lines = new ArrayList<>();
        for (Iterator<Row> it = out.toLocalIterator(); it.hasNext(); ) {
            Row r = it.next();
            ObjectNode n = JSON.createObjectNode();
            if (!r.isNullAt(1)) {
                n.put("corrupt", r.getString(1));
            } else {
                n.set("row", JSON.readTree(r.getString(0)));
            }
            lines.add(JSON.writeValueAsString(n));
        }
        Collections.sort(lines);
        Files.write(target, lines);
        return lines.size();
    }

    private static void generate(SparkSession spark, JsonNode queries, Path in) throws IOException {
        Files.createDirectories(in);
        int i = 0;
        for (JsonNode q : queries) {
            Path name = in.resolve(String.format("part-%02d.parquet", i++));
            if (Files.exists(name)) {
                continue;
            }
            Path tmp = Files.createTempDirectory("golden-parquet");
            Path target = tmp.resolve("out");
            spark.sql(q.asText()).coalesce(1).write().parquet(target.toString());
            try (Stream<Path> files = Files.list(target)) {
                Path part = files.filter(p -> p.getFileName().toString().startsWith("part-") && p.toString().endsWith(".parquet"))
                        .findFirst().orElseThrow();
                Files.copy(part, name);
            }
        }
    }
}
