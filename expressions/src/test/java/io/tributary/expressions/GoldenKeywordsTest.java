package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A keyword written alone as a column, as Spark 4.2's parser reads it at its defaults (the repository's golden/keywords: every
 * keyword of the grammar as a column of {@code source}, in queries ({@code sql:}), select items and WHERE conditions, and
 * what Spark gave): where Spark takes the word as the column (or as a literal: {@code null}, {@code true}, {@code false}),
 * the transform gives Spark's columns and rows; where Spark refuses the text, the transform refuses it, naming a word of
 * it and its position. Two differences are on purpose: a select item that is NULL alone (a column of no type, which a table
 * cannot hold) and {@code SELECT DISTINCT} (a stream drops its duplicates with dropDuplicates) are refused, saying so.
 */
class GoldenKeywordsTest {
    private static Schema schema;
    private static List<Object[]> rows;

    static Stream<Arguments> cases() throws IOException {
        List<String> words = lines("keywords.txt").stream().filter(l -> !l.startsWith("#")).toList();
        StringBuilder ddl = new StringBuilder("id INT");
        Object[] low = new Object[words.size() + 1];
        Object[] high = new Object[words.size() + 1];
        low[0] = 1;
        high[0] = 2;
        for (int i = 0; i < words.size(); i++) {
            ddl.append(", `").append(words.get(i)).append("` INT");
            low[i + 1] = 10;
            high[i + 1] = 20;
        }
        schema = Schema.parse(ddl.toString());
        rows = List.of(low, high);
        List<String> cases = lines("spark.tsv");
        assertThat(cases).hasSize(words.size() * 21);
        return cases.stream().map(l -> l.split("\t", -1)).map(f -> Arguments.of(f[0], f[1], f[2], f[3]));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void aKeywordAloneIsReadAsSparkReadsIt(String form, String text, String spark, String sparkRows) {
        boolean nullItem = text.matches("(?i)(.*(SELECT |, ))?null( AS x)?(,.*| FROM .*)?");
        if (!spark.startsWith("!") && (nullItem || text.matches("(?i)SELECT distinct .*"))) {
            // Spark takes these; Tributary refuses them on purpose (docs/transform.md), saying so
            assertThat(catchThrowable(() -> run(form, text))).as("refused: %s", text).isInstanceOf(TributaryException.class)
                    .hasMessageContaining(nullItem ? "is always NULL and has no type" : "SELECT DISTINCT at line 1, column 8");
            return;
        }
        if (spark.startsWith("!")) {
            Throwable refused = catchThrowable(() -> run(form, text));
            assertThat(refused).as("Spark refuses it: %s %s", spark, sparkRows).isInstanceOf(TributaryException.class);
            String message = refused.getMessage().toLowerCase(Locale.ROOT);
            assertThat(message).as("names the part refused and where").containsAnyOf("position", "column")
                    .satisfies(m -> assertThat(Arrays.stream(text.toLowerCase(Locale.ROOT).split("[ (),+]+")).filter(w -> !w.isEmpty())
                            .anyMatch(w -> m.contains("'" + w + "'") || m.contains(w + " ") || m.contains("\"" + w))).isTrue());
            return;
        }
        assertThat(run(form, text)).as("Spark's columns and rows").isEqualTo(spark + "\t" + sparkRows);
    }

    /** The columns and rows the transform gives: {@code id,end<TAB>1,10;2,20}. */
    private static String run(String form, String text) {
        Transform t = switch (form) {
            case "sql" -> {
                SqlQuery q = SqlQuery.parse(text);
                yield Transform.compileAs(schema, q.sourceAlias(), q.where() == null ? null : q.where().text(),
                        q.select().stream().map(SqlQuery.Part::text).toList());
            }
            case "select" -> Transform.compile(schema, null, List.of(text));
            case "where" -> Transform.compile(schema, text, List.of("id"));
            default -> throw new IllegalArgumentException(form);
        };
        List<String> out = new ArrayList<>();
        for (Object[] row : rows) {
            Object[] r = t.apply(row);
            if (r != null) {
                out.add(Arrays.stream(r).map(String::valueOf).collect(Collectors.joining(",")));
            }
        }
        return t.output().fields().stream().map(Field::name).collect(Collectors.joining(",")) + "\t" + String.join(";", out);
    }

    private static List<String> lines(String name) throws IOException {
        try (InputStream in = GoldenKeywordsTest.class.getResourceAsStream("/golden/keywords/" + name)) {
            assertThat(in).as("golden/keywords/%s", name).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        }
    }
}
