package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden join cases ({@code golden/joins/}, Spark 4.2's rows recorded by compat/spark's {@code SparkJoins}):
 * for each case, {@link StreamStaticJoin} then {@link Transform}'s where and select give exactly Spark's rows, whether the
 * case is given as the transform block gives it or written as a {@code sql:} query and translated ({@link SqlQuery}).
 */
class GoldenJoinsTest {
    private static String read(String name) throws IOException {
        return GoldenFiles.read("joins/" + name);
    }

    private static List<Object[]> rows(Schema schema, String file) throws IOException {
        return GoldenFiles.rows(schema, "joins/" + file);
    }

    /** One golden case as the transform takes it: the join, the stream's alias (null for none), WHERE and the select items. */
    private record Case(StreamStaticJoin.Type type, String alias, String on, String where, List<String> items, String streamAlias) {
    }

    @Test
    void everyCaseGivesSparksRows() throws IOException {
        assertThat(run(f -> new Case(StreamStaticJoin.Type.parse(f[0]), f[1], f[2], f[3].equals("-") ? null : f[3],
                Arrays.asList(Arrays.copyOfRange(f, 4, f.length)), null))).containsExactlyElementsOf(spark());
    }

    /** Each case written as a query, {@code SELECT s.id, ... FROM source s LEFT JOIN delta.`users` u ON ... WHERE ...}, translated. */
    @Test
    void everyCaseWrittenAsAQueryGivesSparksRows() throws IOException {
        assertThat(run(f -> {
            List<String> items = new ArrayList<>(Arrays.asList(Arrays.copyOfRange(f, 4, f.length)));
            items.replaceAll(i -> i.equals("id") ? "s.id" : i); // the stream's column by its alias
            String join = switch (f[0]) {
                case "left" -> "LEFT OUTER JOIN";
                case "left_semi" -> "LEFT SEMI JOIN";
                case "left_anti" -> "LEFT ANTI JOIN";
                default -> "JOIN";
            };
            SqlQuery q = SqlQuery.parse("SELECT " + String.join(", ", items) + "\nFROM source AS s " + join + " delta.`users` " + f[1]
                    + " ON " + f[2] + (f[3].equals("-") ? "" : "\nWHERE " + f[3]));
            SqlQuery.Join j = q.joins().get(0);
            assertThat(j.type()).isEqualTo(f[0]);
            return new Case(StreamStaticJoin.Type.parse(j.type()), j.alias(), j.on().text(), q.where() == null ? null : q.where().text(),
                    q.select().stream().map(SqlQuery.Part::text).toList(), q.sourceAlias());
        })).containsExactlyElementsOf(spark());
    }

    private static List<String> spark() throws IOException {
        return Arrays.stream(read("spark.tsv").split("\n")).filter(l -> !l.isBlank()).toList();
    }

    private static List<String> run(java.util.function.Function<String[], Case> caseOf) throws IOException {
        JsonNode c = new ObjectMapper().readTree(read("case.json"));
        Schema schema = Schema.parse(c.get("schema").asText());
        Schema tableSchema = Schema.parse(c.get("tableSchema").asText());
        List<Object[]> stream = rows(schema, "rows.jsonl");
        List<Object[]> table = rows(tableSchema, "table.jsonl");
        List<String> ours = new ArrayList<>();
        int n = 0;
        for (String line : read("cases.txt").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Case k = caseOf.apply(line.split("\t"));
            StreamStaticJoin join = StreamStaticJoin.compile(schema, schema.fields().stream().map(x -> x.name()).toList(), tableSchema, k.alias(),
                    k.on(), k.type(), 1000, k.streamAlias());
            join.load(table);
            List<String> items = new ArrayList<>();
            for (String item : k.items()) {
                if (item.equals("*")) {
                    join.visible().forEach(v -> items.add("`" + v + "`"));
                } else {
                    items.add(item);
                }
            }
            Transform t = Transform.compileAs(join.output(), k.streamAlias(), k.where(), items);
            List<String> caseRows = new ArrayList<>();
            for (Object[] s : stream) {
                for (Object[] joined : join.apply(s)) {
                    Object[] out = t.apply(joined);
                    if (out == null) {
                        continue;
                    }
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < out.length; i++) {
                        values.add(SparkValues.canonical(out[i], t.output().field(i).type()));
                    }
                    caseRows.add(n + "\t" + String.join("\t", values));
                }
            }
            caseRows.sort(null);
            ours.addAll(caseRows);
            n++;
        }
        assertThat(n).isEqualTo(10);
        return ours;
    }
}
