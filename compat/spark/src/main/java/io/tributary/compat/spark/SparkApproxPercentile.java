package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Spark's {@code percentile_approx} over tens of thousands of values, recorded into {@code approx-percentile.tsv}:
 *
 * <ul>
 *   <li>{@code batch} lines: over {@code range(0, N, 1, 1)} (one partition, so one summary of every row in order), the value of
 *   row i is {@code v = ((i * 40503) % 65537) / 16.0 - 1000.0}; a line {@code batch<TAB>N<TAB>ACCURACY<TAB>v1,v2,...} gives the
 *   estimates at percentages 0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999 and 1. N of 60,000 and more fill Spark's
 *   head buffer of 50,000.</li>
 *   <li>{@code stream} lines: {@link #row}'s rows in three files of {@link #BATCHES} rows, read one file a batch (update mode,
 *   a 5-minute watermark) by {@link #QUERY}; a line {@code stream<TAB>BATCH<TAB>USER<TAB>p1<TAB>...} per row of each batch, a
 *   TIMESTAMP as microseconds, an array as {@code [a, b]}.</li>
 * </ul>
 *
 * <p>Usage: {@code SparkApproxPercentile GOLDEN_DIR aggregate-functions}
 */
public final class SparkApproxPercentile {
    static final int[] COUNTS = {1000, 20000, 60000, 130000};
    static final int[] ACCURACIES = {10000, 100, 1000000, 7};
    static final int[] BATCHES = {6000, 3000, 5000};
    static final String PERCENTAGES = "array(0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1)";
    static final String QUERY = "SELECT window(ts, '10 minutes') AS w, user, percentile_approx(amt, 0.5) AS p1,"
            + " percentile_approx(amt, array(0.01, 0.25, 0.5, 0.75, 0.99), 100) AS p2, approx_percentile(id, array(0.9, 0.1), 1000) AS p3,"
            + " percentile_approx(ts, 0.5, 50) AS p4 FROM source GROUP BY window(ts, '10 minutes'), user";

    private SparkApproxPercentile() {
    }

    /** Row i of the stream: id, user (b for every tenth row, else a), amt (NULL for every 997th) and ts within 09:00-09:10. */
    static String row(long i) {
        long id = (i * 2654435761L) % 100003 - 50000;
        String amt = i % 997 == 0 ? "null" : Double.toString(((i * 40503L) % 65537) / 16.0 - 1000.0);
        Instant ts = Instant.parse("2026-10-06T09:00:00Z").plusMillis((i * 7919L) % 600000);
        return "{\"id\": " + id + ", \"user\": \"" + (i % 10 == 0 ? "b" : "a") + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}";
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-approx-percentile", SparkApproxPercentile::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        List<String> out = new ArrayList<>();
        for (int count : COUNTS) {
            for (int accuracy : ACCURACIES) {
                Row r = spark.sql("SELECT percentile_approx(((id * 40503) % 65537) / 16.0D - 1000.0D, " + PERCENTAGES + ", " + accuracy
                        + ") FROM range(0, " + count + ", 1, 1)").collectAsList().get(0);
                out.add("batch\t" + count + "\t" + accuracy + "\t" + text(r.get(0)).replace(", ", ",").replaceAll("[\\[\\]]", ""));
            }
        }
        Path input = Files.createTempDirectory("approx-percentile-input");
        long i = 0;
        for (int b = 0; b < BATCHES.length; b++) {
            List<String> rows = new ArrayList<>();
            for (int n = 0; n < BATCHES[b]; n++) {
                rows.add(row(i++));
            }
            Path f = input.resolve("part-" + b + ".json");
            Files.write(f, rows, StandardCharsets.UTF_8);
            Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_000_000L + b * 1000L));
        }
        spark.readStream().schema("id INT, user STRING, amt DOUBLE, ts TIMESTAMP").option("maxFilesPerTrigger", 1).json(input.toString())
                .withWatermark("ts", "5 minutes").createOrReplaceTempView("source");
        List<String> stream = new ArrayList<>();
        VoidFunction2<Dataset<Row>, Long> collect = (df, batch) -> {
            for (Row r : df.collectAsList()) {
                StringBuilder s = new StringBuilder("stream\t" + batch + "\t" + r.getString(1));
                for (int c = 2; c < r.length(); c++) {
                    s.append('\t').append(text(r.get(c)));
                }
                stream.add(s.toString());
            }
        };
        spark.sql(QUERY).writeStream().outputMode("update").trigger(Trigger.AvailableNow())
                .option("checkpointLocation", Files.createTempDirectory("approx-percentile-checkpoint").toString())
                .foreachBatch(collect).start().awaitTermination();
        out.addAll(stream);
        Files.write(dir.resolve("approx-percentile.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + out.size() + " lines");
    }

    private static String text(Object v) {
        if (v instanceof scala.collection.Seq<?> seq) {
            List<String> items = new ArrayList<>();
            seq.foreach(x -> items.add(text(x)));
            return items.toString();
        }
        if (v instanceof Instant t) {
            return String.valueOf(t.getEpochSecond() * 1_000_000 + t.getNano() / 1000);
        }
        return String.valueOf(v);
    }
}
