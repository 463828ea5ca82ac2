package io.tributary.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.Expression;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One case of the aggregation fuzz ({@code golden/aggregate-fuzz}, {@link AggregateFuzz}) replayed through the topology and
 * compared with Spark's {@code after-runN.txt}: the case's aggregate arguments that are expressions computed into columns as a
 * pipeline's source computes them ({@code case.json}'s {@code computed}), its runs played as Spark's batches, and the result's
 * columns, each batch's rows and the table after each run required to be Spark's; where Spark failed the query, the run must
 * fail with Spark's error condition, and where Spark refused the query, the spec must be refused.
 */
final class AggregateFuzzCase {
    private static final ObjectMapper JSON = new ObjectMapper();

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
            spec = ReplayedRuns.spec(query).watermark(Duration.ofSeconds(c.get("watermarkSeconds").asLong()))
                    .window(Duration.ofSeconds(c.get("windowSeconds").asLong()))
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
        RowJson in = new RowJson(source);
        RowJson out = new RowJson(Schema.parse(schema));
        List<Difference> differences = new ArrayList<>();
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            ReplayedRuns runs = new ReplayedRuns(driver, new SparkBatches(driver, spec.watermark()), spec.outputSchema(), sets, keys,
                    spec.outputMode() == OutputMode.APPEND);
            for (int run = 1; run <= c.get("runs").asInt(); run++) {
                List<String> golden = file.apply("after-run" + run + ".txt");
                if (golden == null) {
                    break;
                }
                golden = ReplayedRuns.sorted(golden, sets);
                String sparkFailed = ReplayedRuns.sparkFailed(golden);
                String input = "../input/run" + run + ".json";
                ReplayedRuns.Run played = runs.play(() -> file.apply(input).stream().map(line -> withComputed(line, in, out, computed)).toList());
                Throwable failed = played.failed();
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
                String sparkBatches = ReplayedRuns.sparkBatches(golden);
                if (!played.batches().equals(sparkBatches)) {
                    differences.add(new Difference("batches", "run " + run + ": " + played.batches() + " | Spark: "
                            + golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8)));
                    return differences;
                }
                List<String> sparkTable = ReplayedRuns.sparkTable(golden).stream().sorted().toList();
                List<String> ours = runs.table().stream().sorted().toList();
                if (!ours.equals(sparkTable)) {
                    differences.add(new Difference("table: " + columnsDiffering(ours, sparkTable, keys, functions),
                            "run " + run + ": " + ours + " | Spark: " + sparkTable));
                    return differences;
                }
                List<String> sparkWritten = ReplayedRuns.sparkWritten(golden).stream().sorted().toList();
                if (!played.written().stream().sorted().toList().equals(sparkWritten)) {
                    differences.add(new Difference("each batch's rows", "run " + run + ": " + played.written() + " | Spark: " + sparkWritten));
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
        spark.forEach(r -> theirs.put(ReplayedRuns.key(r, keys), r));
        java.util.Set<String> differing = new java.util.TreeSet<>();
        for (String r : ours) {
            String s = theirs.get(ReplayedRuns.key(r, keys));
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
}
