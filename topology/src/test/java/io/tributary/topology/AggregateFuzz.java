package io.tributary.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential testing of the windowed aggregation against Spark, by hand, never in CI (it runs only when {@code aggfuzz.dir}
 * is set). {@code -Daggfuzz.step=generate} writes {@code aggfuzz.count} (200) random specs, seeded by {@code aggfuzz.seed} (1),
 * as case folders {@code c0000} ... of the scratch folder {@code aggfuzz.dir}, with golden/aggregate-fuzz's input: each a
 * window size, a watermark, an output mode, group columns and one to four aggregates of type-valid argument expressions,
 * sometimes a HAVING; {@code SparkAggregateFuzz} (compat/spark) records Spark's runs there; {@code -Daggfuzz.step=compare}
 * replays every case ({@link AggregateFuzzCase}) and writes the ones that differ to {@code differences.txt}, counted by kind
 * in {@code summary.txt}.
 */
@EnabledIfSystemProperty(named = "aggfuzz.dir", matches = ".+")
class AggregateFuzz {
    static final String SOURCE = "id INT, user STRING, cat STRING, amt DOUBLE, qty BIGINT, price DECIMAL(10,2), big DECIMAL(38,6),"
            + " ok BOOLEAN, at TIMESTAMP, ts TIMESTAMP";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Argument expressions by type: i INT, l BIGINT, d DOUBLE, m DECIMAL, s STRING, b BOOLEAN, t TIMESTAMP. */
    private static final Map<Character, String[]> ARGUMENTS = Map.of(
            'i', new String[] {"id", "id", "id * 2", "id % 4", "-id", "id - 14"},
            'l', new String[] {"qty", "qty", "qty * 2", "qty + id", "CAST(id AS BIGINT)", "qty div 3"},
            'd', new String[] {"amt", "amt", "amt * 2", "amt + id", "amt * qty", "amt / 4", "CAST(price AS DOUBLE)", "-amt"},
            'm', new String[] {"price", "big", "price", "big", "price * qty", "price * 1.5", "big + price", "CAST(amt AS DECIMAL(12,3))",
                "price / 3", "price * price", "CAST(id AS DECIMAL(5,1))"},
            's', new String[] {"user", "cat", "user", "concat(user, cat)", "upper(user)", "CAST(id AS STRING)", "coalesce(cat, user)"},
            'b', new String[] {"ok", "ok", "amt > 100", "id % 2 = 0", "price > 10", "qty < 0"},
            't', new String[] {"ts", "at", "ts", "at"});
    /** Aggregates: {@code $c} an argument of type c ({@code n} any number, {@code o} anything orderable, {@code x} anything). */
    private static final String[] AGGREGATES = {"sum($n)", "sum($n)", "avg($n)", "avg($n)", "try_sum($n)", "try_avg($n)", "min($o)",
        "max($o)", "min($o)", "max($o)", "count($x)", "count(*)", "first($x)", "last($x)", "first($x, true)", "last($x, true)",
        "any_value($x)", "count_if($b)", "bool_and($b)", "bool_or($b)", "every($b)", "some($b)", "max_by($x, $o)", "min_by($x, $o)",
        "collect_list($c)", "collect_set($c)", "approx_count_distinct($x)", "percentile_approx($n, 0.5)",
        "percentile_approx($n, 0.25, 100)", "median($n)", "stddev($n)", "variance($n)", "var_pop($n)", "stddev_pop($n)",
        "skewness($n)", "kurtosis($n)", "bit_and($k)", "bit_or($k)", "bit_xor($k)", "mean($n)", "percentile($n, 0.5)", "mode($c)",
        "sum($m)", "avg($m)", "max($s)", "min($t)", "max_by($s, $m)", "collect_set($d)"};
    private static final String[] WINDOWS = {"5 minutes", "10 minutes", "10 minutes", "30 minutes", "1 hour"};
    private static final String[] WATERMARKS = {"0 seconds", "1 minute", "5 minutes", "5 minutes", "15 minutes"};
    private static final String[][] GROUPS = {{}, {"user"}, {"user"}, {"cat"}, {"ok"}, {"user", "cat"}};
    private static final String[] HAVING = {"count(*) > 1", "sum(id) > 10", "max(amt) IS NOT NULL", "min(user) < 'b'"};

    @TempDir
    Path stateDir;

    @Test
    void fuzz() throws IOException {
        Path dir = Path.of(System.getProperty("aggfuzz.dir"));
        if (System.getProperty("aggfuzz.step", "generate").equals("generate")) {
            generate(dir, Long.getLong("aggfuzz.seed", 1), Integer.getInteger("aggfuzz.count", 200));
        } else {
            compare(dir);
        }
    }

    private void generate(Path dir, long seed, int count) throws IOException {
        Files.createDirectories(dir.resolve("input"));
        for (int run = 1; run <= 3; run++) {
            Files.write(dir.resolve("input/run" + run + ".json"), resource("aggregate-fuzz/input/run" + run + ".json"));
        }
        Random random = new Random(seed);
        for (int n = 0; n < count; n++) {
            Path c = Files.createDirectories(dir.resolve(String.format("c%04d", n)));
            Files.writeString(c.resolve("case.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(spec(random)));
        }
    }

    /** One random spec as {@code case.json}: Spark's query, the engine's (arguments that are expressions read from columns) and the computed columns. */
    static ObjectNode spec(Random random) {
        String window = pick(random, WINDOWS);
        String watermark = pick(random, WATERMARKS);
        String[] groups = GROUPS[random.nextInt(GROUPS.length)];
        StringBuilder spark = new StringBuilder("SELECT window(ts, '" + window + "') AS window");
        StringBuilder ours = new StringBuilder(spark);
        for (String g : groups) {
            spark.append(", ").append(g);
            ours.append(", ").append(g);
        }
        ObjectNode computed = JSON.createObjectNode();
        ObjectNode functions = JSON.createObjectNode();
        int items = 1 + random.nextInt(4);
        for (int i = 0; i < items; i++) {
            String name = String.valueOf((char) ('a' + i));
            String template = pick(random, AGGREGATES);
            String function = template.substring(0, template.indexOf('('));
            StringBuilder s = new StringBuilder();
            StringBuilder o = new StringBuilder();
            int argument = 0;
            for (int at = 0; at < template.length(); at++) {
                char ch = template.charAt(at);
                if (ch != '$') {
                    s.append(ch);
                    o.append(ch);
                    continue;
                }
                String text = argument(random, template.charAt(++at));
                argument++;
                s.append(text);
                if (text.matches("[a-z]+")) {
                    o.append(text);
                } else {
                    String column = (argument == 1 ? "_agg_" : "_agg" + argument + "_") + name;
                    computed.put(column, text);
                    o.append('`').append(column).append('`');
                }
            }
            spark.append(", ").append(s).append(" AS ").append(name);
            ours.append(", ").append(o).append(" AS ").append(name);
            functions.put(name, function);
        }
        String from = " FROM source GROUP BY window(ts, '" + window + "')" + (groups.length == 0 ? "" : ", " + String.join(", ", groups));
        spark.append(from);
        ours.append(from);
        if (random.nextInt(4) == 0) {
            String having = " HAVING " + pick(random, HAVING);
            spark.append(having);
            ours.append(having);
        }
        ObjectNode c = JSON.createObjectNode();
        c.put("outputMode", random.nextBoolean() ? "append" : "update");
        c.put("window", window).put("windowSeconds", seconds(window));
        c.put("watermark", watermark).put("watermarkSeconds", seconds(watermark));
        c.put("keys", groups.length).put("runs", 3).put("sourceSchema", SOURCE);
        c.put("query", spark.toString()).put("tributaryQuery", ours.toString());
        c.set("computed", computed);
        c.set("functions", functions);
        return c;
    }

    private static String argument(Random random, char type) {
        char t = switch (type) {
            case 'n' -> "ildm".charAt(random.nextInt(4));
            case 'k' -> "il".charAt(random.nextInt(2));
            case 'o' -> "ildmst".charAt(random.nextInt(6));
            case 'c' -> "ildmsb".charAt(random.nextInt(6));
            case 'x' -> "ildmsbt".charAt(random.nextInt(7));
            default -> type;
        };
        return pick(random, ARGUMENTS.get(t));
    }

    private static long seconds(String duration) {
        String[] p = duration.split(" ");
        return Long.parseLong(p[0]) * (p[1].startsWith("second") ? 1 : p[1].startsWith("minute") ? 60 : 3600);
    }

    private static String pick(Random random, String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private void compare(Path dir) throws IOException {
        List<String> differences = new ArrayList<>();
        Map<String, Integer> kinds = new TreeMap<>();
        int cases = 0;
        List<Path> folders;
        try (Stream<Path> s = Files.list(dir)) {
            folders = s.filter(p -> Files.exists(p.resolve("after-run1.txt"))).sorted().toList();
        }
        for (Path c : folders) {
            cases++;
            Path state = Files.createTempDirectory(stateDir, "state");
            List<AggregateFuzzCase.Difference> found;
            try {
                found = AggregateFuzzCase.replay(name -> read(c.resolve(name).normalize()), state);
            } catch (RuntimeException | AssertionError e) {
                found = List.of(new AggregateFuzzCase.Difference("harness: " + e.getClass().getSimpleName(), String.valueOf(e.getMessage())));
            }
            for (AggregateFuzzCase.Difference d : found) {
                kinds.merge(d.kind(), 1, Integer::sum);
                differences.add(c.getFileName() + "\t" + d.kind() + "\t" + d.detail().replace('\n', ' '));
            }
        }
        Files.write(dir.resolve("differences.txt"), differences);
        List<String> summary = new ArrayList<>();
        summary.add(cases + " cases, " + differences.size() + " differ");
        kinds.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> summary.add(e.getValue() + "\t" + e.getKey()));
        Files.write(dir.resolve("summary.txt"), summary);
        System.out.println(String.join("\n", summary));
    }

    private static List<String> read(Path p) {
        try {
            return Files.exists(p) ? Files.readAllLines(p) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] resource(String path) throws IOException {
        try (InputStream in = AggregateFuzz.class.getResourceAsStream("/golden/" + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        }
    }
}
