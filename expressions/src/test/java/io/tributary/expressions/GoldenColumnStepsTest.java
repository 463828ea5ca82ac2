package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The golden column-step cases ({@code golden/column-steps/}, Spark 4.2's rows recorded by compat/spark's {@code SparkColumnSteps}):
 * where, select, then {@link ColumnSteps} give Spark's DataFrame {@code withColumns(Map)}, {@code withColumnsRenamed(Map)} and
 * {@code drop(names...)} rows in Spark's order, Spark's column names, order and types, and refuse what Spark refuses. A rename
 * that makes two columns of one name, which Spark's DataFrame holds and its Delta write refuses, is refused at start.
 */
class GoldenColumnStepsTest {
    private static String read(String name) throws IOException {
        try (InputStream in = GoldenColumnStepsTest.class.getClassLoader().getResourceAsStream("golden/column-steps/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> lines(String name) throws IOException {
        return Arrays.stream(read(name).split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static Map<Integer, List<String>> byCase(String name) throws IOException {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (String l : lines(name)) {
            out.computeIfAbsent(Integer.parseInt(l.substring(0, l.indexOf('\t'))), k -> new ArrayList<>()).add(l);
        }
        return out;
    }

    private static List<String> items(String field) {
        return field.equals("-") ? List.of() : List.of(field.split(";;"));
    }

    private static Map<String, String> pairs(String field) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String item : items(field)) {
            int eq = item.indexOf('=');
            out.put(item.substring(0, eq), item.substring(eq + 1));
        }
        return out;
    }

    /** Whether a {@code columns.tsv} line names a column twice (in any case). */
    private static boolean duplicated(String columns) {
        List<String> names = Arrays.stream(columns.split("\t")).skip(1).map(c -> c.substring(0, c.indexOf(' ')).toLowerCase()).toList();
        return names.size() != new java.util.HashSet<>(names).size();
    }

    @Test
    void everyCaseGivesSparksRowsColumnsAndRefusals() throws IOException {
        Schema schema = Schema.parse(new ObjectMapper().readTree(read("case.json")).get("schema").asText());
        RowJson json = new RowJson(schema);
        List<Object[]> input = lines("rows.jsonl").stream().map(json::parse).toList();
        Map<Integer, List<String>> spark = byCase("spark.tsv");
        Map<Integer, List<String>> sparkColumns = byCase("columns.tsv");
        List<String> cases = lines("cases.txt");
        assertThat(cases).hasSize(16);
        int refused = 0;
        for (int c = 0; c < cases.size(); c++) {
            String[] f = cases.get(c).split("\t");
            List<String> expected = spark.getOrDefault(c, List.of());
            boolean sparkRefuses = expected.size() == 1 && expected.get(0).startsWith(c + "\t!");
            Transform t;
            try {
                Transform selected = Transform.compile(schema, f[0].equals("-") ? null : f[0], f[1].equals("-") ? null : items(f[1]));
                t = new ColumnSteps(pairs(f[2]), pairs(f[3]), items(f[4]), null).after(selected, 0);
            } catch (TributaryException e) {
                if (!sparkRefuses && duplicated(sparkColumns.get(c).get(0))) {
                    assertThat(e.getMessage()).as("case %d", c).contains("[COLUMN_ALREADY_EXISTS]");
                    continue;
                }
                assertThat(sparkRefuses).as("case %d (%s) is refused (%s), and Spark runs it", c, cases.get(c), e.getMessage()).isTrue();
                if (expected.get(0).endsWith("COLUMN_ALREADY_EXISTS")) {
                    assertThat(e.getMessage()).as("case %d", c).contains("[COLUMN_ALREADY_EXISTS]");
                }
                refused++;
                continue;
            }
            List<String> ours = new ArrayList<>();
            for (Object[] row : input) {
                for (Object[] out : t.rows(row)) {
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < out.length; i++) {
                        values.add(SparkValues.canonical(out[i], t.output().field(i).type()));
                    }
                    ours.add(c + "\t" + String.join("\t", values));
                }
            }
            assertThat(ours).as("case %d: %s", c, cases.get(c)).containsExactlyElementsOf(expected);
            List<String> columns = new ArrayList<>();
            for (Field field : t.output().fields()) {
                columns.add(field.name() + " " + field.type().ddl());
            }
            assertThat(c + "\t" + String.join("\t", columns)).as("case %d's columns", c).isEqualTo(sparkColumns.get(c).get(0));
        }
        assertThat(refused).as("the refusals").isEqualTo(spark.values().stream()
                .filter(l -> l.size() == 1 && l.get(0).contains("\t!")).count());
    }
}
