package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.Transform;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark 4 silver table's VARIANT columns end to end: JSON files whose {@code raw} field is JSON text, a transform that keeps
 * {@code parse_json(raw)} and a {@code to_variant_object(...)} as VARIANT columns, the events topic, the Delta table (read
 * back, it gives what Spark's query gave over Spark's own table, {@code golden/variant/spark.tsv}), and a Delta source that
 * copies the table into a second one. {@code -Dtributary.variant.keep=FOLDER} copies the bronze table to
 * FOLDER/tributary-table for compat/spark's {@code SparkVariants read}.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class VariantScenarioTest {
    static final String SPEC = """
            name: variants
            source:
              files:
                path: in/
                schema: "id INT, raw STRING"
                onBadRecord: fail
            transform:
              select:
                - "id"
                - "parse_json(raw) AS payload"
                - "to_variant_object(named_struct('n', id, 'd', DATE'2024-02-29', 'dec', CAST(id AS DECIMAL(5,2)) / 4, 'bin', X'CAFE', 'f', CAST(id AS FLOAT) / 2)) AS typed"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;
    static final String SILVER = """
            name: silver
            source:
              delta:
                path: ../bronze/out/
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;
    private static final Schema TABLE = new Schema(List.of(new Field("id", DataType.INT, true), new Field("payload", DataType.VARIANT, true),
            new Field("typed", DataType.VARIANT, true)));
    /** compat/spark's SparkVariants.QUERY. */
    private static final List<String> QUERY = List.of("id", "to_json(payload)", "schema_of_variant(payload)",
            "CAST(try_variant_get(payload, '$.a', 'int') AS STRING)", "CAST(try_variant_get(payload, '$.b.c[1]', 'double') AS STRING)",
            "to_json(typed)", "schema_of_variant(typed)", "CAST(variant_get(typed, '$.d', 'date') AS STRING)");

    @TempDir
    Path dir;

    @Test
    void parsedJsonLandsAsVariantColumnsAndFlowsOnThroughADeltaSource() throws IOException {
        List<String> cases = Golden.read("variant/cases.txt").lines().toList();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            lines.add("{\"id\": " + (i + 1) + ", \"raw\": \"" + cases.get(i).replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        }
        Workspace bronze = new Workspace(dir.resolve("bronze"), SPEC);
        bronze.addFile("a.json", lines.toArray(String[]::new));
        Workspace.Result run = bronze.tributary("run").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(cases.size());
        String table = dir.resolve("bronze/out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("id INT, payload VARIANT, typed VARIANT");
        List<String> spark = Golden.read("variant/spark.tsv").lines().toList();
        assertThat(query(DeltaTables.readRows(table))).isEqualTo(spark);

        Workspace silver = new Workspace(dir.resolve("silver"), SILVER);
        silver.tributary("run").assertOk();
        assertThat(query(DeltaTables.readRows(dir.resolve("silver/out").toString()))).isEqualTo(spark);
        keepForSpark(dir.resolve("bronze/out"));
    }

    /** The rows as Spark's query over its own table printed them, by id. */
    private static List<String> query(List<Object[]> rows) {
        Transform query = Transform.compile(TABLE, null, QUERY);
        return rows.stream().sorted(Comparator.comparing(r -> (Integer) r[0])).map(r -> {
            List<String> cells = new ArrayList<>();
            for (Object v : query.apply(r)) {
                cells.add(v == null ? "NULL" : String.valueOf(v));
            }
            return String.join("\t", cells);
        }).toList();
    }

    private static void keepForSpark(Path table) throws IOException {
        String keep = System.getProperty("tributary.variant.keep");
        if (keep == null) {
            return;
        }
        Path target = Path.of(keep).resolve("tributary-table");
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.toList()) {
                Path to = target.resolve(table.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
    }
}
