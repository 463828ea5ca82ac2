package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.GoldenFiles;
import io.tributary.expressions.RowTransform;
import io.tributary.expressions.SparkValues;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The queries users paste into {@code sql:} ({@code golden/sql/}, Spark 4.2's tables or errors recorded by compat/spark's
 * {@code SparkSqlQueries}): each query Spark runs gives Spark's columns, types and rows here; each query Spark refuses is refused.
 */
class GoldenSqlQueriesTest {
    private static String read(String name) throws IOException {
        return GoldenFiles.read("sql/" + name);
    }

    private static List<Object[]> rows(Schema schema, String file) throws IOException {
        return GoldenFiles.rows(schema, "sql/" + file);
    }

    /** Spark's lines of each case, by case. */
    private static Map<Integer, List<String>> spark() throws IOException {
        Map<Integer, List<String>> out = new LinkedHashMap<>();
        for (String line : read("spark.tsv").split("\n")) {
            if (!line.isBlank()) {
                out.computeIfAbsent(Integer.parseInt(line.substring(0, line.indexOf('\t'))), k -> new ArrayList<>()).add(line);
            }
        }
        return out;
    }

    private static List<String> queries() throws IOException {
        return Arrays.stream(read("cases.txt").split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.replace("\\n", "\n")).toList();
    }

    /**
     * Queries Spark runs that Tributary refuses at start, naming the construct: LIMIT (here, where the transform is compiled for a
     * Delta or Kafka source; the file ingest keeps it, golden/sql-limit), a view joined to itself, {@code NOT IN (SELECT ...)}
     * inside {@code OR} and scalar subqueries (one whose rows fail Spark's query: SCALAR_SUBQUERY_TOO_MANY_ROWS)
     * (docs/transform.md, "Not supported yet").
     */
    private static final Set<String> NOT_YET = Set.of(
            "SELECT * FROM source LIMIT 2",
            "WITH x AS (SELECT id FROM source) SELECT a.id FROM x a JOIN x b ON a.id = b.id",
            "SELECT id FROM source WHERE id > 3 OR user NOT IN (SELECT u.user FROM delta.`T` u)",
            "SELECT id FROM source WHERE amt * 100 > (SELECT avg(u.lim) FROM delta.`T` u)",
            "SELECT id, (SELECT max(u.lim) FROM delta.`T` u) AS m FROM source",
            "SELECT id, (SELECT u.lim FROM delta.`T` u WHERE u.user = 'bob') AS m FROM source",
            "SELECT id, (SELECT u.lim FROM delta.`T` u WHERE u.user = 'zed') AS m FROM source",
            "SELECT s.id, (SELECT max(u.lim) FROM delta.`T` u WHERE u.user = s.user) AS m FROM source s");
    /**
     * A name on both sides of a join (docs/transform.md, "Differences from Spark"): the bare name is the stream's and {@code *}
     * gives it once, where Spark refuses the bare name (AMBIGUOUS_REFERENCE) and its Delta write refuses {@code *}'s two.
     */
    private static final Set<String> DIFFERENT = Set.of(
            "SELECT * FROM source s JOIN delta.`T` u ON s.user = u.user",
            "SELECT user FROM source s JOIN delta.`T` u ON s.user = u.user");

    @Test
    void everyQuerySparkRunsGivesSparksTableAndEveryQuerySparkRefusesIsRefused() throws IOException {
        List<String> queries = queries();
        Map<Integer, List<String>> spark = spark();
        assertThat(spark.keySet()).as("Spark's recording covers every case").hasSize(queries.size());
        int same = 0;
        int refused = 0;
        for (int n = 0; n < queries.size(); n++) {
            String query = queries.get(n);
            List<String> ours = ours(n, query);
            List<String> theirs = spark.get(n);
            String ran = theirs.get(0).split("\t", 3)[1];
            if (NOT_YET.contains(query)) {
                assertThat(ran).as(query).matches(":.*|!STREAM_FAILED"); // Spark runs it (or its rows fail Spark's query)
                assertThat(ours).as(query).singleElement().asString().startsWith(n + "\t!\t").contains("is not supported");
            } else if (DIFFERENT.contains(query)) {
                assertThat(ours).as(query).isNotEqualTo(theirs);
                assertThat(ours.get(0)).as(query).startsWith(n + "\t:");
            } else if (ran.startsWith(":")) {
                assertThat(ours).as(query).isEqualTo(theirs);
                same++;
            } else {
                String[] f = theirs.get(0).split("\t", 3);
                String condition = f[1].substring(1);
                if (condition.equals("STREAM_FAILED")) { // the write failed: its cause's class is in brackets in the message
                    int at = f[2].contains("; cause: [") ? f[2].indexOf("; cause: [") + 10 : f[2].indexOf("exception: [") + 12;
                    condition = f[2].substring(at, f[2].indexOf(']', at)); // a row that failed it: the row's error (CAST_INVALID_INPUT)
                }
                if (condition.equals("DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES")) { // the sink refuses the table (ColumnNameCharactersTest)
                    assertThat(ours.get(0)).as(query).startsWith(n + "\t:").matches("(?s).*`[^`]*[ ,;{}()=][^`]*`.*");
                } else {
                    assertThat(ours).as(query).singleElement().asString().startsWith(n + "\t!\t");
                    if (!condition.startsWith("_LEGACY_ERROR")) {
                        assertThat(ours.get(0)).as(query).contains(condition);
                    }
                }
                refused++;
            }
        }
        assertThat(same).as("cases with Spark's table").isEqualTo(87);
        assertThat(refused).as("cases Spark refuses, or whose rows fail it").isEqualTo(33);
    }

    /** Tributary's lines of case {@code n}, as SparkSqlQueries writes Spark's: the schema and the sorted rows, or the refusal. */
    static List<String> ours(int n, String query) throws IOException {
        JsonNode c = new ObjectMapper().readTree(read("case.json"));
        Schema schema = Schema.parse(c.get("schema").asText());
        Schema tableSchema = Schema.parse(c.get("tableSchema").asText());
        List<Object[]> table = rows(tableSchema, "table.jsonl");
        StaticTable t = new StaticTable() {
            @Override
            public long version() {
                return 0;
            }

            @Override
            public Schema schema() {
                return tableSchema;
            }

            @Override
            public List<Object[]> rows() {
                return table;
            }
        };
        RowTransform transform;
        try {
            Values values = Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.of("sql", query)::get,
                    (s, x, e) -> e);
            transform = RowTransforms.compile(values, schema, location -> t);
        } catch (TributaryException e) {
            return List.of(n + "\t!\t" + e.getMessage().lines().findFirst().orElse(""));
        }
        try {
            return rows(n, schema, transform);
        } catch (ExpressionException e) { // a row Spark's query fails on: the ingest dead-letters it
            return List.of(n + "\t!\t" + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static List<String> rows(int n, Schema schema, RowTransform transform) throws IOException {
        transform.refresh();
        List<String> out = new ArrayList<>();
        out.add(n + "\t:" + ddl(transform.output()));
        List<String> values = new ArrayList<>();
        for (Object[] row : rows(schema, "rows.jsonl")) {
            for (Object[] o : transform.apply(row)) {
                List<String> v = new ArrayList<>();
                for (int i = 0; i < o.length; i++) {
                    v.add(SparkValues.canonical(o[i], transform.output().field(i).type()));
                }
                values.add(n + "\t" + String.join("\t", v));
            }
        }
        values.sort(null);
        out.addAll(values);
        return out;
    }

    /** The schema as Spark's {@code StructType.toDDL} writes it: {@code name TYPE} joined by commas, a name quoted where needed. */
    static String ddl(Schema schema) {
        List<String> fields = new ArrayList<>();
        for (var f : schema.fields()) {
            String name = f.name().matches("[A-Za-z_][A-Za-z0-9_]*") ? f.name() : "`" + f.name().replace("`", "``") + "`";
            fields.add(name + " " + f.type().ddl());
        }
        return String.join(",", fields);
    }
}
