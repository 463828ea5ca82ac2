package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

/** The golden cases a recorder runs: {@code ROOT [CASE...]}, every folder of ROOT with a {@code case.json} when none is named. */
final class GoldenCases {
    private GoldenCases() {
    }

    static List<Path> fromArgs(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        List<Path> cases = new ArrayList<>();
        if (args.length > 1) {
            for (int i = 1; i < args.length; i++) {
                cases.add(root.resolve(args[i]));
            }
        } else {
            try (Stream<Path> s = Files.list(root)) {
                s.filter(p -> Files.exists(p.resolve("case.json"))).sorted().forEach(cases::add);
            }
        }
        return cases;
    }

    /** What a recorder does with one case. */
    interface Recorder {
        void record(SparkSession spark, Path caseDir) throws Exception;
    }

    /** Runs {@code recorder} on each case of {@code args} in one local Spark session (one core, UTC, one shuffle partition). */
    static void recordEach(String[] args, String appName, Recorder recorder) throws Exception {
        recordEach(args, SparkSession.builder().appName(appName), recorder);
    }

    /** As {@link #recordEach(String[], String, Recorder)}, the session with Delta's SQL extension and catalog. */
    static void recordEachWithDelta(String[] args, String appName, Recorder recorder) throws Exception {
        recordEach(args, SparkSession.builder().appName(appName)
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"), recorder);
    }

    private static void recordEach(String[] args, SparkSession.Builder session, Recorder recorder) throws Exception {
        List<Path> cases = fromArgs(args);
        SparkSession spark = session.master("local[1]")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "1").getOrCreate();
        try {
            for (Path c : cases) {
                recorder.record(spark, c);
            }
        } finally {
            spark.stop();
        }
    }

    /** {@code batches 0:5@-,1:3@2024-...}: each batch of the query's progress, its id, input rows and watermark. */
    static String batches(StreamingQuery q) {
        StringBuilder batches = new StringBuilder("batches");
        for (StreamingQueryProgress p : q.recentProgress()) {
            String wm = p.eventTime().get("watermark");
            batches.append(batches.length() > 7 ? "," : " ").append(p.batchId()).append(':').append(p.numInputRows())
                    .append('@').append(wm == null ? "-" : wm);
        }
        return batches.toString();
    }
}
