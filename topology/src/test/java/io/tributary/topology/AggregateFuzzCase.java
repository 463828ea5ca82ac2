package io.tributary.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.Expression;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.DataType;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One case of the aggregation fuzz ({@code golden/aggregate-fuzz}, {@link AggregateFuzz}) replayed through the topology and
 * compared with Spark's {@code after-runN.txt}: the case's aggregate arguments that are expressions computed into columns as a
 * pipeline's source computes them ({@code case.json}'s {@code computed}), its runs played as Spark's batches, and the result's
 * columns, each batch's rows and the table after each run required to be Spark's; where Spark failed the query, the run must
 * fail with Spark's error condition, and where Spark refused the query, the spec must be refused.
 */
final class AggregateFuzzCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** A way the engine differs from Spark: its kind (what differs, and the function of a column whose values differ) and what. */
    record Difference(String kind, String detail) {
    }

    private AggregateFuzzCase() {
    }

    /**
     * @param file a file of the case's folder by name ({@code case.json}, {@code after-run1.txt}; {@code ../input/run1.json} for the
     *     input), its lines, or null when it is not there
     * @return the differences from Spark, none when the engine gives Spark's results
     */
    static List<Difference> replay(Function<String, List<String>> file, Path stateDir) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", file.apply("case.json")));
        List<String> run1 = file.apply("after-run1.txt");
        String refused = run1.stream().filter(l -> l.startsWith("refused ")).findFirst().orElse(null);
        Schema source = Schema.parse(c.get("sourceSchema").asText());
        Map<String, Expression> computed = new LinkedHashMap<>();
        String schema = source.toDdl();
        for (Iterator<Map.Entry<String, JsonNode>> it = c.get("computed").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Expression x;
            try {
                x = Expression.compile(source, e.getValue().asText());
            } catch (TributaryException refusal) {
                return refusedDifference(refused, c, "argument " + e.getValue().asText() + ": " + refusal.getMessage());
            }
            computed.put(e.getKey(), x);
            schema += ", " + Schema.quote(e.getKey()) + " " + x.type().ddl();
        }
        AggregateSpec spec;
        try {
            SqlQuery.Aggregation query = SqlQuery.parse(c.get("tributaryQuery").asText()).aggregation();
            spec = AggregateSpec.builder().eventTime(query.eventTime()).watermark(Duration.ofSeconds(c.get("watermarkSeconds").asLong()))
                    .window(Duration.ofSeconds(c.get("windowSeconds").asLong())).windowColumn(query.windowColumn())
                    .groupBy(query.groupBy().stream().map(SelectItems::name).toList()).select(query.select()).columns(query.columns())
                    .having(query.having() == null ? null : query.having().text())
                    .outputMode(OutputMode.parse(c.get("outputMode").asText())).build(Schema.parse(schema));
        } catch (TributaryException e) {
            return refusedDifference(refused, c, e.getMessage());
        }
        if (refused != null) {
            return List.of(new Difference("accepted what Spark refuses", refused));
        }
        String sparkSchema = run1.stream().filter(l -> l.startsWith("schema ")).findFirst().orElseThrow().substring(7);
        if (!ddl(spec.outputSchema().toDdl()).equals(ddl(sparkSchema))) {
            return List.of(new Difference("types", spec.outputSchema().toDdl() + " | Spark: " + sparkSchema));
        }
        List<String> functions = functions(c, spec.outputSchema());
        List<Integer> sets = new ArrayList<>();
        for (int i = 0; i < functions.size(); i++) {
            if (functions.get(i).equals("collect_set")) {
                sets.add(i);
            }
        }
        int keys = 1 + c.get("keys").asInt();
        boolean append = spec.outputMode() == OutputMode.APPEND;
        RowJson in = new RowJson(source);
        RowJson out = new RowJson(Schema.parse(schema));
        Map<String, String> table = new TreeMap<>();
        List<Difference> differences = new ArrayList<>();
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, spec.watermark());
            for (int run = 1; run <= c.get("runs").asInt(); run++) {
                List<String> golden = file.apply("after-run" + run + ".txt");
                if (golden == null) {
                    break;
                }
                golden = golden.stream().map(l -> sorted(l, sets)).toList();
                String sparkFailed = golden.stream().filter(l -> l.startsWith("failed ")).findFirst().orElse(null);
                List<String> rows = new ArrayList<>();
                String batches;
                Throwable failed = null;
                try {
                    for (String line : file.apply("../input/run" + run + ".json")) {
                        rows.add(withComputed(line, in, out, computed));
                    }
                    batches = ingest.run(List.of(rows));
                } catch (RuntimeException e) {
                    failed = e;
                    batches = null;
                }
                while (failed != null && !(failed instanceof TributaryException) && failed.getCause() != null) { // Kafka Streams wraps it
                    failed = failed.getCause();
                }
                if (sparkFailed != null) {
                    String condition = sparkFailed.contains("[") ? sparkFailed.substring(sparkFailed.indexOf('['), sparkFailed.indexOf(']') + 1) : sparkFailed;
                    if (failed == null) {
                        differences.add(new Difference("no failure where Spark fails " + condition + " (" + String.join(",", functions.subList(keys, functions.size())) + ")",
                                "run " + run + ": " + sparkFailed.lines().findFirst().orElse("")));
                    } else if (!String.valueOf(failed.getMessage()).contains(condition.replaceAll("^\\[|\\]$", ""))) { // an argument's error names it bare
                        differences.add(new Difference("another failure than Spark's " + condition, "run " + run + ": " + failed));
                    }
                    return differences;
                }
                if (failed != null) {
                    differences.add(new Difference("fails where Spark does not: " + firstWords(failed), "run " + run + ": " + failed));
                    return differences;
                }
                List<String> written = new ArrayList<>();
                List<String> pending = new ArrayList<>();
                for (AggregationDriver.Output o : driver.drain()) {
                    if (!o.marker()) {
                        pending.add(sparkRow(o.row(), spec.outputSchema(), sets));
                        continue;
                    }
                    long batch = JSON.readTree(o.value()).get("batchId").asLong();
                    for (String row : pending) {
                        written.add("out " + batch + "|" + row);
                        table.put(append ? row + "#" + table.size() : key(row, keys), row);
                    }
                    pending.clear();
                }
                String sparkBatches = golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8);
                if (!batches.equals(sparkBatches.replaceAll("@[^,]*", ""))) {
                    differences.add(new Difference("batches", "run " + run + ": " + batches + " | Spark: " + sparkBatches));
                    return differences;
                }
                List<String> sparkTable = golden.stream().filter(l -> l.startsWith("{")).sorted().toList();
                List<String> ours = table.values().stream().sorted().toList();
                if (!ours.equals(sparkTable)) {
                    differences.add(new Difference("table: " + columnsDiffering(ours, sparkTable, keys, functions),
                            "run " + run + ": " + ours + " | Spark: " + sparkTable));
                    return differences;
                }
                List<String> sparkWritten = golden.stream().filter(l -> l.startsWith("out ")).sorted().toList();
                if (!written.stream().sorted().toList().equals(sparkWritten)) {
                    differences.add(new Difference("each batch's rows", "run " + run + ": " + written + " | Spark: " + sparkWritten));
                    return differences;
                }
            }
        }
        return differences;
    }

    /** A schema's DDL as Spark and the engine both write it: the window's NOT NULL left out (a Delta table's columns are nullable). */
    private static String ddl(String ddl) {
        return ddl.replace(" NOT NULL", "").replace(", ", ",");
    }

    private static List<Difference> refusedDifference(String sparkRefused, JsonNode c, String message) {
        if (sparkRefused != null) {
            return List.of();
        }
        return List.of(new Difference("refuses what Spark runs: " + firstWords(message), c.get("query").asText() + " -> " + message));
    }

    private static String firstWords(Object o) {
        String s = String.valueOf(o instanceof Throwable t ? t.getMessage() : o);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[[A-Z_.0-9]+\\]").matcher(s);
        if (m.find()) {
            return m.group();
        }
        return s.length() > 60 ? s.substring(0, 60) : s;
    }

    /** Each output column's aggregate function (the window's and the groups' as themselves), from {@code case.json}'s {@code functions}. */
    private static List<String> functions(JsonNode c, Schema output) {
        List<String> f = new ArrayList<>();
        for (int i = 0; i < output.size(); i++) {
            JsonNode fn = c.get("functions").get(output.field(i).name());
            f.add(fn == null ? output.field(i).name() : fn.asText());
        }
        return f;
    }

    /** The functions of the columns whose values differ in a row of the same window and groups. */
    private static String columnsDiffering(List<String> ours, List<String> spark, int keys, List<String> functions) {
        Map<String, String> theirs = new TreeMap<>();
        spark.forEach(r -> theirs.put(key(r, keys), r));
        java.util.Set<String> differing = new java.util.TreeSet<>();
        for (String r : ours) {
            String s = theirs.get(key(r, keys));
            if (s == null) {
                differing.add("rows");
                continue;
            }
            String[] a = r.split("\\|", -1);
            String[] b = s.split("\\|", -1);
            for (int i = keys; i < Math.min(a.length, b.length); i++) {
                if (!a[i].equals(b[i])) {
                    differing.add(i < functions.size() ? functions.get(i) : "?");
                }
            }
        }
        if (ours.size() != spark.size()) {
            differing.add("rows");
        }
        return String.join(",", differing);
    }

    /** The input line with the case's computed argument columns, as the source computes them. */
    private static String withComputed(String line, RowJson in, RowJson out, Map<String, Expression> computed) {
        if (computed.isEmpty()) {
            return line;
        }
        Object[] row = in.parse(line);
        Object[] wide = Arrays.copyOf(row, row.length + computed.size());
        int i = row.length;
        for (Expression e : computed.values()) {
            wide[i++] = e.eval(row);
        }
        return new String(out.write(wide), StandardCharsets.UTF_8);
    }

    private static String key(String row, int keys) {
        return String.join("|", Arrays.asList(row.split("\\|", -1)).subList(0, keys));
    }

    /** A row as {@code SparkAggregateFuzz} prints Spark's: {@code {start, end}|v|...}, timestamps as java.sql.Timestamp, arrays as Scala's. */
    static String sparkRow(Object[] row, Schema output, List<Integer> sets) {
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
    static String ts(long micros) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        String s = t.format(SECONDS);
        if (t.getNano() == 0) {
            return s;
        }
        String nanos = String.format("%09d", t.getNano()).replaceAll("0+$", "");
        return s + "." + nanos;
    }
}
