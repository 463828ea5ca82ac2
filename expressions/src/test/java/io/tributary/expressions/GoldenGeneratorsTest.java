package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The golden generator cases ({@code golden/generators/}, Spark 4.2's rows recorded by compat/spark's {@code SparkGenerators}):
 * {@code explode} and its family (and {@code variant_explode}, whose VARIANT {@code value} is compared as its JSON) as select items of the transform and of a {@code sql:} query, and a query's LATERAL VIEWs,
 * give Spark's rows in Spark's order and Spark's column names and types; a case Spark refuses is refused naming Spark's error
 * condition, and a row Spark fails on fails with Spark's condition.
 */
class GoldenGeneratorsTest {
    private static String read(String name) throws IOException {
        try (InputStream in = GoldenGeneratorsTest.class.getClassLoader().getResourceAsStream("golden/generators/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> lines(String name) throws IOException {
        return Arrays.stream(read(name).split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /** A case's lines of a {@code CASE<TAB>...} file, by case. */
    private static Map<Integer, List<String>> byCase(String name) throws IOException {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (String l : lines(name)) {
            out.computeIfAbsent(Integer.parseInt(l.substring(0, l.indexOf('\t'))), k -> new ArrayList<>()).add(l);
        }
        return out;
    }

    /** The conditions of Spark's refusals that Tributary's refusal names. */
    private static final List<String> NAMED = List.of("UNSUPPORTED_GENERATOR", "UDTF_ALIAS", "NUM_TABLE_VALUE_ALIASES_MISMATCH",
            "NOT_A_TABLE_FUNCTION", "INVALID_LATERAL_JOIN_TYPE", "UNSUPPORTED_FEATURE.LATERAL_JOIN_USING", "INVALID_SQL_SYNTAX",
            "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY");

    /** {@code range} in FROM, whose rows Spark joins to each row (a stream's too): Tributary refuses it (docs/transform.md). */
    private static final Set<Integer> RANGE = Set.of(110, 115);
    /**
     * Each streaming case Spark's streaming query fails (a lateral join's ON, planned as an aggregation, UNSUPPORTED_STREAMING_OPERATOR_WITHOUT_WATERMARK),
     * to the batch case of its query, whose rows Tributary gives (docs/transform.md).
     */
    private static final Map<Integer, Integer> AS_BATCH = Map.of(113, 104, 116, 102);

    @Test
    void everyCaseGivesSparksRowsColumnsAndRefusals() throws IOException {
        Schema schema = Schema.parse(new ObjectMapper().readTree(read("case.json")).get("schema").asText());
        RowJson json = new RowJson(schema);
        List<Object[]> input = lines("rows.jsonl").stream().map(json::parse).toList();
        Map<Integer, List<String>> spark = byCase("spark.tsv");
        Map<Integer, List<String>> sparkColumns = byCase("columns.tsv");
        List<String> cases = lines("cases.txt");
        assertThat(cases).hasSize(118);
        int refused = 0;
        for (int c = 0; c < cases.size(); c++) {
            String[] f = cases.get(c).split("\t");
            int as = AS_BATCH.getOrDefault(c, c);
            int k = c;
            List<String> expected = spark.getOrDefault(as, List.of()).stream().map(l -> k + l.substring(l.indexOf('\t'))).toList();
            if (RANGE.contains(c)) {
                assertThat(spark.get(c)).as("Spark runs case %d", c).noneMatch(l -> l.contains("\t!"));
                assertThatThrownBy(() -> compile(schema, cases.get(k).split("\t"))).as("case %d", c)
                        .hasMessageContaining("the table function range makes rows of its own");
                continue;
            }
            String sparkError = expected.size() == 1 && expected.get(0).startsWith(c + "\t!") ? expected.get(0).substring((c + "\t!").length()) : null;
            Transform t;
            try {
                t = compile(schema, f);
            } catch (TributaryException e) {
                assertThat(sparkError).as("case %d (%s) is refused (%s), and Spark runs it", c, cases.get(c), e.getMessage()).isNotNull();
                if (NAMED.stream().anyMatch(sparkError::startsWith)) {
                    assertThat(e.getMessage()).as("case %d", c).contains("[" + sparkError + "]");
                }
                refused++;
                continue;
            }
            List<String> ours = new ArrayList<>();
            try {
                for (Object[] row : input) {
                    for (Object[] out : t.rows(row)) {
                        List<String> values = new ArrayList<>();
                        for (int i = 0; i < out.length; i++) {
                            values.add(SparkValues.canonical(out[i], t.output().field(i).type()));
                        }
                        ours.add(c + "\t" + String.join("\t", values));
                    }
                }
            } catch (ExpressionException e) {
                ours = List.of(c + "\t!" + e.condition()); // Spark fails the query; the pipeline dead-letters the row
            }
            assertThat(ours).as("case %d: %s", c, cases.get(c)).containsExactlyElementsOf(expected);
            if (sparkError == null) {
                List<String> columns = new ArrayList<>();
                for (Field field : t.output().fields()) {
                    boolean variant = io.tributary.expressions.internal.Variants.isVariant(field.type()); // variant_explode's value
                    columns.add(field.name() + " " + (variant ? "VARIANT" : field.type().ddl()));
                }
                assertThat(String.join("\t", columns)).as("case %d's columns", c).isEqualTo(sparkColumns.get(as).get(0)
                        .substring(String.valueOf(as).length() + 1));
            }
        }
        assertThat(refused).as("the refusals").isEqualTo(spark.entrySet().stream().filter(e -> !AS_BATCH.containsKey(e.getKey()))
                .map(Map.Entry::getValue)
                .filter(l -> l.size() == 1 && l.get(0).contains("\t!") && !l.get(0).endsWith("CAST_INVALID_INPUT")).count());
    }

    /** A case as the transform block gives it, or a query ({@code sql} or {@code stream}) translated as {@code sql:} is. */
    private static Transform compile(Schema schema, String[] f) {
        if (f[0].equals("select")) {
            return Transform.compile(schema, f[1].equals("-") ? null : f[1], Arrays.asList(Arrays.copyOfRange(f, 2, f.length)));
        }
        SqlQuery q = SqlQuery.parse(f[1]);
        return Transform.compileAs(schema, q.sourceAlias(), q.lateralViews().stream().map(SqlQuery.Part::text).toList(),
                q.where() == null ? null : q.where().text(), q.select().stream().map(SqlQuery.Part::text).toList());
    }
}
