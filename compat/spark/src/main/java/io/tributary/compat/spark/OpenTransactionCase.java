package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One case of {@link SparkOpenTransactions}: a table (deletion vectors on or off), Spark's change and the
 * batch, with the serial results Spark itself gives for them and the ways of reading a table's outcome.
 */
record OpenTransactionCase(SparkSession spark, String name, String change, boolean deletionVectors, List<Object[]> batch) {
    static final String SPARK_THEN_BATCH = "spark-then-batch";
    static final String BATCH_THEN_SPARK = "batch-then-spark";
    static final String BATCH_ALONE = "batch-alone";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Versions 0 to 2 of the table: created, ids 1..10, ids 11..20. */
    void createBase(Path table) {
        for (String sql : SparkConcurrentCommits.base(delta(table), deletionVectors)) {
            spark.sql(sql);
        }
    }

    /** Spark's change of {@code table}. */
    String changeSql(Path table) {
        return String.format(change, delta(table));
    }

    /** The batch as Spark applies it: a MERGE by id that updates every column of a matched row and inserts the others. */
    String mergeSql(Path table) {
        String values = batch.stream().map(r -> "(" + r[0] + ", '" + r[1] + "', " + r[2] + "D)").collect(Collectors.joining(", "));
        return "MERGE INTO " + delta(table) + " t USING (SELECT * FROM VALUES " + values + " AS s(id, user, amt)) s "
                + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
    }

    /** The batch as the input file's JSON lines. */
    List<String> batchLines() {
        return batch.stream().map(r -> "{\"id\": " + r[0] + ", \"user\": \"" + r[1] + "\", \"amt\": " + r[2] + "}").toList();
    }

    /**
     * The serial results a table may equal, by name, each the rows of a copy of {@code base} (folder
     * {@code dir/serial-NAME}) after Spark's change and the batch in one order when Spark committed, or after the
     * batch alone when Spark's transaction failed.
     */
    Map<String, List<String>> serialResults(Path base, Path dir, boolean sparkCommitted) throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Map<String, List<String>> steps = new LinkedHashMap<>();
        if (sparkCommitted) {
            steps.put(SPARK_THEN_BATCH, List.of("change", "batch"));
            steps.put(BATCH_THEN_SPARK, List.of("batch", "change"));
        } else {
            steps.put(BATCH_ALONE, List.of("batch"));
        }
        for (Map.Entry<String, List<String>> s : steps.entrySet()) {
            Path copy = dir.resolve("serial-" + s.getKey());
            SparkOpenTransactions.copyTable(base, copy);
            for (String step : s.getValue()) {
                spark.sql(step.equals("change") ? changeSql(copy) : mergeSql(copy));
            }
            out.put(s.getKey(), rows(spark, copy));
        }
        return out;
    }

    /** The table's rows read by Spark, sorted, each as Spark's JSON. */
    static List<String> rows(SparkSession spark, Path table) {
        return spark.read().format("delta").load(table.toString()).orderBy("id", "user", "amt").toJSON().collectAsList();
    }

    /** True when no id is held twice among {@code rows}. */
    static boolean keysOnce(List<String> rows) {
        Set<Integer> ids = new HashSet<>();
        for (String r : rows) {
            try {
                if (!ids.add(JSON.readTree(r).get("id").asInt())) {
                    return false;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return true;
    }

    /** Each version from {@code from}: its operation and engine, as Spark's history shows them, and its file actions. */
    static List<String> history(SparkSession spark, Path table, long from) throws IOException {
        List<String> out = new ArrayList<>();
        List<Row> rows = spark.sql("DESCRIBE HISTORY " + delta(table)).where("version >= " + from).orderBy("version")
                .select("version", "operation", "engineInfo").collectAsList();
        for (Row r : rows) {
            long v = r.getLong(0);
            out.add(v + " " + r.getString(1) + " by " + r.getString(2) + ": " + actions(table.resolve("_delta_log").resolve(String.format("%020d.json", v))));
        }
        return out;
    }

    /** The add and remove actions of a commit file, counted, with how many name a deletion vector. */
    private static String actions(Path commit) throws IOException {
        int adds = 0;
        int addsDv = 0;
        int removes = 0;
        int removesDv = 0;
        for (String line : Files.readAllLines(commit)) {
            JsonNode a = JSON.readTree(line);
            if (a.has("add")) {
                adds++;
                addsDv += a.get("add").hasNonNull("deletionVector") ? 1 : 0;
            } else if (a.has("remove")) {
                removes++;
                removesDv += a.get("remove").hasNonNull("deletionVector") ? 1 : 0;
            }
        }
        return adds + " add(s) (" + addsDv + " with a deletion vector), " + removes + " remove(s) (" + removesDv + " with a deletion vector)";
    }

    /** The {@code engineInfo} of a commit file's {@code commitInfo}. */
    static String engineInfo(Path commit) throws IOException {
        if (!Files.exists(commit)) {
            throw new IllegalStateException("no commit " + commit + " after the tributary run");
        }
        for (String line : Files.readAllLines(commit)) {
            JsonNode a = JSON.readTree(line);
            if (a.has("commitInfo")) {
                return a.get("commitInfo").path("engineInfo").asText("no engineInfo");
            }
        }
        return "no commitInfo";
    }

    /** A failure of Spark's change: the concurrent modification it is (or holds), with its message's first line. */
    static String describe(Throwable failure) {
        Throwable t = failure;
        while (t != null && !(t instanceof ConcurrentModificationException)) {
            t = t.getCause();
        }
        Throwable shown = t == null ? failure : t;
        String message = String.valueOf(shown.getMessage()).lines().findFirst().orElse("");
        return shown.getClass().getName() + ": " + message;
    }

    private static String delta(Path table) {
        return "delta.`" + table.toAbsolutePath() + "`";
    }
}
