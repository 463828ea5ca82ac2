package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.SparkSession;

/**
 * Reads Delta tables written by Tributary with Apache Spark and Delta Lake, as any Spark user would
 * ({@code spark.read.format("delta").load(path)} and {@code spark.readStream.format("delta")}),
 * and checks them against expectations. Exit code 0 when every table reads and meets its
 * expectations, 1 when one does not, 2 on bad arguments.
 */
public final class SparkRead {
    private SparkRead() {
    }

    public static void main(String[] args) {
        List<TableExpectation> tables;
        try {
            tables = TableExpectation.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        SparkSession spark = SparkSession.builder()
                .appName("tributary-compat-spark")
                .master("local[1]")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1")
                .getOrCreate();
        System.out.println("Spark " + spark.version() + ", Delta " + deltaVersion());
        List<String> failures = new ArrayList<>();
        for (TableExpectation table : tables) {
            failures.addAll(new TableCheck(spark, table).run());
        }
        spark.stop();
        System.out.println();
        if (failures.isEmpty()) {
            System.out.println("SparkRead: PASS (" + tables.size() + " table(s))");
            System.exit(0);
        }
        System.out.println("SparkRead: FAIL (" + failures.size() + " problem(s))");
        failures.forEach(f -> System.out.println("  - " + f));
        System.exit(1);
    }

    /** Delta's version string ({@code io.delta.VERSION}; Scala's package object is not nameable from Java). */
    private static String deltaVersion() {
        try {
            return (String) Class.forName("io.delta.package").getMethod("VERSION").invoke(null);
        } catch (ReflectiveOperationException e) {
            return "unknown (" + e + ")";
        }
    }
}
