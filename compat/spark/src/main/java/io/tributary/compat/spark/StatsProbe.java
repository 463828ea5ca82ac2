package io.tributary.compat.spark;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import scala.Option;

/**
 * Checks the file statistics the writer put in the log, as Spark interprets them. Delta's data
 * skipping prunes files with the min/max in each add action, so a wrong statistic (a timestamp in
 * the wrong unit, a truncated string, a wrong numRecords) makes Spark silently skip a file. Two
 * checks: every file's parsed stats (Spark's own {@code Snapshot.withStats}) bound the values
 * actually in that file (its {@code numRecords}: the rows read plus those its deletion vector marks); and a
 * filter on the table-wide min and max of each column finds its rows.
 * Also reports which checkpoint Spark started its snapshot from.
 */
final class StatsProbe {
    private final SparkSession spark;
    private final String path;
    private final Dataset<Row> df;

    StatsProbe(SparkSession spark, String path, Dataset<Row> df) {
        this.spark = spark;
        this.path = path;
        this.df = df;
    }

    void run(Consumer<String> failures) {
        Snapshot snapshot = DeltaLog.forTable(spark, path).update(false, Option.empty(), Option.empty());
        System.out.println("spark snapshot: version " + snapshot.version() + ", checkpoint used: "
                + (snapshot.checkpointProvider().version() < 0 ? "none" : "version " + snapshot.checkpointProvider().version())
                + ", json commits replayed on top: " + snapshot.logSegment().deltas().size());
        List<String> leaves = leafColumns(df.schema());
        // a partition column has no statistics: its value is the add action's partitionValues
        List<String> partitionColumns = scala.jdk.javaapi.CollectionConverters.asJava(snapshot.metadata().partitionColumns());
        checkFileStats(snapshot, leaves.stream().filter(l -> !partitionColumns.contains(l.replace("`", ""))).toList(), failures);
        probeFilters(leaves, failures);
    }

    private void checkFileStats(Snapshot snapshot, List<String> leaves, Consumer<String> failures) {
        Dataset<Row> stats = snapshot.withStats()
                .select(functions.substring_index(col("path"), "/", -1).as("file"), col("stats"),
                        functions.coalesce(col("deletionVector.cardinality"), functions.lit(0L)).as("deleted"));
        List<Column> aggs = new ArrayList<>();
        aggs.add(functions.count(functions.lit(1)).as("rows"));
        for (int i = 0; i < leaves.size(); i++) {
            aggs.add(functions.min(col(leaves.get(i))).as("min" + i));
            aggs.add(functions.max(col(leaves.get(i))).as("max" + i));
        }
        Dataset<Row> actual = df.withColumn("file", col("_metadata.file_name")).groupBy("file")
                .agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(Column[]::new));
        Dataset<Row> joined = stats.join(actual, "file");
        // numRecords counts the rows in the Parquet file, those a deletion vector marks deleted included
        Column bad = col("stats.numRecords").notEqual(col("rows").plus(col("deleted")));
        Column withMinMax = functions.lit(0);
        for (int i = 0; i < leaves.size(); i++) {
            Column statMin = col("stats.minValues." + leaves.get(i));
            Column statMax = col("stats.maxValues." + leaves.get(i));
            bad = bad.or(statMin.gt(col("min" + i))).or(statMax.lt(col("max" + i)));
            withMinMax = withMinMax.plus(functions.when(statMin.isNotNull().and(statMax.isNotNull()), 1).otherwise(0));
        }
        List<Row> summary = joined.agg(functions.count(functions.lit(1)),
                functions.sum(functions.when(bad, 1).otherwise(0)), functions.min(withMinMax)).collectAsList();
        long files = summary.get(0).getLong(0);
        long wrong = summary.get(0).isNullAt(1) ? 0 : summary.get(0).getLong(1);
        System.out.println("file stats: " + files + " file(s) compared with Spark's parsed stats, " + wrong
                + " with stats that exclude their own values; min/max present for at least "
                + (summary.get(0).isNullAt(2) ? 0 : summary.get(0).get(2)) + " of " + leaves.size() + " columns per file");
        if (files == 0) {
            failures.accept("no data file of the table could be matched with an add action's stats");
        }
        if (wrong > 0) {
            joined.where(bad).show(20, false);
            failures.accept(wrong + " file(s) have statistics that exclude their own values (see the table above)");
        }
    }

    private void probeFilters(List<String> leaves, Consumer<String> failures) {
        int probes = 0;
        for (String leaf : leaves) {
            Row bounds = df.agg(functions.min(col(leaf)), functions.max(col(leaf))).first();
            for (int b = 0; b < 2; b++) {
                if (bounds.isNullAt(b)) {
                    continue;
                }
                probes++;
                if (df.where(col(leaf).equalTo(functions.lit(bounds.get(b)))).isEmpty()) {
                    failures.accept("filter " + leaf + " = " + bounds.get(b) + " finds no row although the value is in"
                            + " the table: the file statistics exclude it");
                }
            }
        }
        System.out.println("filter probes: " + probes + " (min and max of " + leaves + ")");
    }

    /** The columns Delta keeps statistics for: primitive ones, at the top or in a struct (not in arrays or maps). */
    private static List<String> leafColumns(StructType schema) {
        List<String> leaves = new ArrayList<>();
        for (StructField f : schema.fields()) {
            if (f.dataType() instanceof StructType inner) {
                for (StructField g : inner.fields()) {
                    if (primitive(g.dataType())) {
                        leaves.add("`" + f.name() + "`.`" + g.name() + "`");
                    }
                }
            } else if (primitive(f.dataType())) {
                leaves.add("`" + f.name() + "`");
            }
        }
        return leaves;
    }

    private static boolean primitive(org.apache.spark.sql.types.DataType t) {
        return !(t instanceof StructType || t instanceof org.apache.spark.sql.types.ArrayType
                || t instanceof org.apache.spark.sql.types.MapType);
    }
}
