package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's file metadata on the golden case {@code golden/file-metadata}: copies {@code in/} to a temp folder, gives each
 * file the modification time {@code case.json} names ({@code mtimes}), reads it as JSON with {@code case.json}'s schema and
 * writes {@code spark.jsonl}: one line per row of {@code selectExpr("*", "input_file_name() AS input_file", "_metadata")}
 * (and {@code spark-columns.txt}, the columns of {@code SELECT *}, without {@code _metadata}), the temp folder's URI
 * replaced by {@code <in>} in every value.
 *
 * <p>Usage: {@code SparkFileMetadata GOLDEN_DIR [CASE...]}
 */
public final class SparkFileMetadata {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkFileMetadata() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-file-metadata", SparkFileMetadata::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Path tmp = Files.createTempDirectory("tributary-file-metadata");
        Path in = tmp.resolve("in");
        Files.createDirectories(in);
        for (Iterator<Map.Entry<String, JsonNode>> it = spec.get("mtimes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Path f = in.resolve(e.getKey());
            Files.copy(dir.resolve("in").resolve(e.getKey()), f);
            Files.setLastModifiedTime(f, FileTime.from(Instant.parse(e.getValue().asText())));
        }
        Dataset<Row> files = spark.read().schema(spec.get("schema").asText()).json(in.toString());
        String star = String.join(",", files.select("*").columns());
        Dataset<Row> selected = files.selectExpr("*", "input_file_name() AS input_file", "_metadata", "typeof(_metadata) AS metadata_type")
                .orderBy("id");
        List<String> lines = new ArrayList<>();
        for (Row r : selected.selectExpr("to_json(struct(*))").collectAsList()) {
            String line = r.getString(0);
            String abs = in.toAbsolutePath().toString();
            line = line.replace("file://" + abs, "file://<in>").replace("file:" + abs, "file:<in>").replace(abs, "<in>");
            lines.add(line);
        }
        Files.writeString(dir.resolve("spark-columns.txt"), star + "\n");
        Files.write(dir.resolve("spark.jsonl"), lines);
        System.out.println(dir.getFileName() + ": " + lines.size() + " rows; SELECT * gives " + star);
    }
}
