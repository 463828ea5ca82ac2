package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spark's golden window cases, run file by file through the whole pipeline on a real broker with
 * three partitions (so some partitions are quiet in a batch): after each run the aggregate table
 * must hold exactly the rows Spark's table held.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(600)
class GoldenWindowsScenarioTest {
    static final String SPEC = """
            name: golden
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: append
            sink:
              delta:
                path: agg/
            topic:
              partitions: 3
            trigger: availableNow
            """;

    /** The same aggregation as one query: its GROUP BY is the aggregate: block above. */
    static final String SQL_SPEC = SPEC.replace("""
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            """, """
            sql: |
              SELECT window(ts, '10 minutes') AS window, user, sum(amt) AS t
              FROM source
              GROUP BY window(ts, '10 minutes'), user
            aggregate:
              watermark: 5 minutes
            """);

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("case-901", List.of(List.of("run1.json"), List.of("run2.json"), List.of("run3.json"), List.of("run4.json")), ""),
                Arguments.of("case-902", List.of(List.of("run1.json"), List.of("run2.json"), List.of("run3.json"), List.of("run4.json")), ""),
                Arguments.of("case-903", List.of(List.of("run1.json"), List.of("run2.json"), List.of("run3.json"), List.of("run4.json")), ""),
                Arguments.of("case-late-two-runs", List.of(List.of("run1.json"), List.of("run2.json")), ""),
                Arguments.of("case-late-one-run", List.of(List.of("run1-file1.json", "run1-file2.json")), "1"),
                Arguments.of("case-late-two-runs", List.of(List.of("run1.json"), List.of("run2.json")), "sql"));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("cases")
    void eachRunLeavesSparksTable(String goldenCase, List<List<String>> runs, String variant) throws IOException {
        assertThat(SQL_SPEC).contains("GROUP BY").doesNotContain("groupBy");
        // variant: "" the block, "sql" the block written as a query, a number: source.files.maxFilesPerTrigger
        String spec = variant.isEmpty() ? SPEC : variant.equals("sql") ? SQL_SPEC
                : SPEC.replace("format: json", "format: json\n    maxFilesPerTrigger: " + variant);
        Workspace ws = new Workspace(dir, spec);
        int run = 0;
        for (List<String> files : runs) {
            run++;
            for (String f : files) {
                ws.addFileInOrder(f, golden(goldenCase + "/" + f).strip().split("\n")); // file order = Spark's: oldest first
            }
            ws.tributary("run").assertOk();
            List<String> expected = Golden.windowRows("windows/" + goldenCase + "/after-run" + run + ".txt");
            assertThat(table(dir.resolve("agg").toString()))
                    .as("%s after run %d", goldenCase, run)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * Spark's HAVING cases (golden/having): the case's query as {@code sql:} in its output mode over its golden/windows
     * input, run by run; the table after each run must be Spark's (update mode: the sink's upsert, Spark's MERGE), and each
     * run must end, its sink waiting for no row HAVING dropped.
     */
    @ParameterizedTest(name = "having {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"append-count", "update-sum", "append-late", "update-late"})
    void havingLeavesSparksTable(String havingCase) throws IOException {
        com.fasterxml.jackson.databind.JsonNode c = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Golden.read("having/" + havingCase + "/case.json"));
        String spec = SQL_SPEC.replace("""
                  SELECT window(ts, '10 minutes') AS window, user, sum(amt) AS t
                  FROM source
                  GROUP BY window(ts, '10 minutes'), user
                """, "  " + c.get("query").asText() + "\n").replace("outputMode: append", "outputMode: " + c.get("outputMode").asText());
        assertThat(spec).contains("HAVING");
        Workspace ws = new Workspace(dir, spec);
        for (int run = 1; run <= c.get("runs").asInt(); run++) {
            String file = "run" + run + ".json";
            ws.addFileInOrder(file, golden(c.get("input").asText() + "/" + file).strip().split("\n"));
            ws.tributary("run").assertOk();
            assertThat(table(dir.resolve("agg").toString())).as("%s after run %d", havingCase, run)
                    .containsExactlyInAnyOrderElementsOf(Golden.windowRows("having/" + havingCase + "/after-run" + run + ".txt"));
        }
    }

    /** The table as the golden files print it: {@code {start, end}|user|t}. */
    static List<String> table(String path) {
        List<String> rows = new ArrayList<>();
        if (!DeltaTables.exists(path)) {
            return rows;
        }
        for (Object[] r : DeltaTables.readRows(path)) {
            Object[] w = (Object[]) r[0];
            rows.add("{" + ts((Long) w[0]) + ", " + ts((Long) w[1]) + "}|" + r[1] + "|" + r[2]);
        }
        return rows;
    }

    private static String ts(long micros) {
        return Timestamps.formatMicros(micros).replace('T', ' ').replace("Z", "");
    }

    static String golden(String resource) throws IOException {
        return Golden.read("windows/" + resource);
    }
}
