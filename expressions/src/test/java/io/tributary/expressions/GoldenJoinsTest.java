package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden join cases ({@code golden/joins/}, Spark 4.2's rows recorded by compat/spark's {@code SparkJoins}):
 * for each case, {@link StreamStaticJoin} then {@link Transform}'s where and select give exactly Spark's rows.
 */
class GoldenJoinsTest {
    private static String read(String name) throws IOException {
        try (InputStream in = GoldenJoinsTest.class.getClassLoader().getResourceAsStream("golden/joins/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<Object[]> rows(Schema schema, String file) throws IOException {
        RowJson json = new RowJson(schema);
        List<Object[]> out = new ArrayList<>();
        for (String line : read(file).split("\n")) {
            if (!line.isBlank()) {
                out.add(json.parse(line));
            }
        }
        return out;
    }

    @Test
    void everyCaseGivesSparksRows() throws IOException {
        JsonNode c = new ObjectMapper().readTree(read("case.json"));
        Schema schema = Schema.parse(c.get("schema").asText());
        Schema tableSchema = Schema.parse(c.get("tableSchema").asText());
        List<Object[]> stream = rows(schema, "rows.jsonl");
        List<Object[]> table = rows(tableSchema, "table.jsonl");
        List<String> spark = Arrays.stream(read("spark.tsv").split("\n")).filter(l -> !l.isBlank()).toList();
        List<String> ours = new ArrayList<>();
        int n = 0;
        for (String line : read("cases.txt").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            StreamStaticJoin join = StreamStaticJoin.compile(schema, schema.fields().stream().map(x -> x.name()).toList(), tableSchema, f[1],
                    f[2], StreamStaticJoin.Type.parse(f[0]), 1000);
            join.load(table);
            List<String> items = new ArrayList<>();
            for (String item : Arrays.copyOfRange(f, 4, f.length)) {
                if (item.equals("*")) {
                    join.visible().forEach(v -> items.add("`" + v + "`"));
                } else {
                    items.add(item);
                }
            }
            Transform t = Transform.compile(join.output(), f[3].equals("-") ? null : f[3], items);
            List<String> caseRows = new ArrayList<>();
            for (Object[] s : stream) {
                for (Object[] joined : join.apply(s)) {
                    Object[] out = t.apply(joined);
                    if (out == null) {
                        continue;
                    }
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < out.length; i++) {
                        values.add(GoldenCase.canonical(out[i], t.output().field(i).type()));
                    }
                    caseRows.add(n + "\t" + String.join("\t", values));
                }
            }
            caseRows.sort(null);
            ours.addAll(caseRows);
            n++;
        }
        assertThat(n).isEqualTo(10);
        assertThat(ours).containsExactlyElementsOf(spark);
    }
}
