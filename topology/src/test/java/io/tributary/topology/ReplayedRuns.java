package io.tributary.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A recorded aggregation's runs replayed through the topology as Spark's batches ({@link SparkBatches}), and what they wrote in
 * the lines compat/spark's recorders print Spark's ({@code after-runN.txt}): the batches line, each batch's rows
 * ({@code out N|row}), the table after each run ({@code {start, end}|...}), or the run's failure; a collect_set column's
 * elements sorted on both sides, as their order is a hash table's.
 */
final class ReplayedRuns {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /**
     * What one run did: Spark's progress line of its batches ({@code batchId:numInputRows,...}) and each batch's rows, or its
     * failure (the {@link TributaryException} Kafka Streams wraps, else the innermost cause) with neither.
     */
    record Run(String batches, List<String> written, Throwable failed) {
    }

    private final AggregationDriver driver;
    private final SparkBatches ingest;
    private final Schema output;
    private final List<Integer> sets;
    private final int keys;
    private final boolean append;
    private final Map<String, String> table = new TreeMap<>();

    /**
     * @param sets the output columns that collect_set gives
     * @param keys how many leading columns key a row of the table (the window's and the groups'); every row is kept when
     *     {@code append}
     */
    ReplayedRuns(AggregationDriver driver, SparkBatches ingest, Schema output, List<Integer> sets, int keys, boolean append) {
        this.driver = driver;
        this.ingest = ingest;
        this.output = output;
        this.sets = sets;
        this.keys = keys;
        this.append = append;
    }

    /** The builder of the aggregation {@code sql:} translates the query into: all but its window, watermark and output mode. */
    static AggregateSpec.Builder spec(SqlQuery.Aggregation query) {
        return AggregateSpec.builder().eventTime(query.eventTime()).windowColumn(query.windowColumn())
                .groupBy(query.groupBy().stream().map(SelectItems::name).toList()).select(query.select()).columns(query.columns())
                .having(query.having() == null ? null : query.having().text());
    }

    /** Plays one run as one batch of the given rows (computing them may fail the run too) and takes what it wrote. */
    Run play(Supplier<List<String>> rows) {
        String batches;
        try {
            batches = ingest.run(List.of(rows.get()));
        } catch (RuntimeException e) {
            Throwable failed = e;
            while (!(failed instanceof TributaryException) && failed.getCause() != null) { // Kafka Streams wraps it
                failed = failed.getCause();
            }
            return new Run(null, List.of(), failed);
        }
        List<String> written = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        for (AggregationDriver.Output o : driver.drain()) {
            if (!o.marker()) {
                pending.add(sparkRow(o.row(), output, sets));
                continue;
            }
            long batch;
            try {
                batch = JSON.readTree(o.value()).get("batchId").asLong();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String row : pending) {
                written.add("out " + batch + "|" + row);
                table.put(append ? row + "#" + table.size() : key(row, keys), row);
            }
            pending.clear();
        }
        return new Run(batches, written, null);
    }

    /** The table after the runs played so far. */
    List<String> table() {
        return new ArrayList<>(table.values());
    }

    /** An {@code after-runN.txt}'s lines with the collect_set columns' elements sorted. */
    static List<String> sorted(List<String> golden, List<Integer> sets) {
        return golden.stream().map(l -> sorted(l, sets)).toList();
    }

    /** Spark's line {@code failed ...} of a run, or null where the run did not fail. */
    static String sparkFailed(List<String> golden) {
        return golden.stream().filter(l -> l.startsWith("failed ")).findFirst().orElse(null);
    }

    /** Spark's batches line of a run without the watermarks, as {@link SparkBatches#run} gives it. */
    static String sparkBatches(List<String> golden) {
        return golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8).replaceAll("@[^,]*", "");
    }

    /** Spark's rows of each batch of a run ({@code out N|row}). */
    static List<String> sparkWritten(List<String> golden) {
        return golden.stream().filter(l -> l.startsWith("out ")).toList();
    }

    /** Spark's table after a run. */
    static List<String> sparkTable(List<String> golden) {
        return golden.stream().filter(l -> l.startsWith("{")).toList();
    }

    static String key(String row, int keys) {
        return String.join("|", Arrays.asList(row.split("\\|", -1)).subList(0, keys));
    }

    /** A row as the recorders print Spark's: {@code {start, end}|v|...}, timestamps as java.sql.Timestamp, arrays as Scala's. */
    private static String sparkRow(Object[] row, Schema output, List<Integer> sets) {
        Object[] w = (Object[]) row[0];
        StringBuilder s = new StringBuilder("{" + ts((Long) w[0]) + ", " + ts((Long) w[1]) + "}");
        for (int i = 1; i < row.length; i++) {
            DataType type = output.field(i).type();
            Object v = row[i];
            String text = v == null ? "null" : type.kind() == DataType.Kind.TIMESTAMP ? ts((Long) v)
                    : v instanceof List<?> l ? "ArraySeq(" + l.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"
                    : String.valueOf(v);
            s.append('|').append(sets.contains(i) ? sortedArray(text) : text);
        }
        return s.toString();
    }

    private static String sorted(String line, List<Integer> sets) {
        if (sets.isEmpty() || !(line.startsWith("{") || line.startsWith("out "))) {
            return line;
        }
        int shift = line.startsWith("out ") ? 1 : 0;
        String[] f = line.split("\\|", -1);
        for (int i : sets) {
            f[i + shift] = sortedArray(f[i + shift]);
        }
        return String.join("|", f);
    }

    private static String sortedArray(String v) {
        if (!v.startsWith("ArraySeq(") || v.equals("ArraySeq()")) {
            return v;
        }
        return "ArraySeq(" + Arrays.stream(v.substring(9, v.length() - 1).split(", ")).sorted().collect(Collectors.joining(", ")) + ")";
    }

    /** As java.sql.Timestamp prints in UTC, without a fraction of zero. */
    private static String ts(long micros) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        String s = t.format(SECONDS);
        if (t.getNano() == 0) {
            return s;
        }
        return s + "." + String.format("%09d", t.getNano()).replaceAll("0+$", "");
    }
}
