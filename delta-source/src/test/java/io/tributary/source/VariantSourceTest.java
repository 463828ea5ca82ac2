package io.tributary.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerExtension;
import io.tributary.expressions.Transform;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The delta-source on the table Spark 4.2 wrote with VARIANT columns ({@code golden/variant/table}): the columns are VARIANT,
 * and the rows it publishes hold Spark's variants, which give what Spark's query gave ({@code golden/variant/spark.tsv});
 * the same for Spark's partitioned and column-mapped tables of {@code golden/variant/layouts}.
 */
@Tag("integration")
class VariantSourceTest {
    private static final Schema TABLE = new Schema(List.of(new Field("id", DataType.INT, true), new Field("payload", DataType.VARIANT, true),
            new Field("typed", DataType.VARIANT, true)));
    /** compat/spark's SparkVariants.QUERY. */
    private static final List<String> QUERY = List.of("id", "to_json(payload)", "schema_of_variant(payload)",
            "CAST(try_variant_get(payload, '$.a', 'int') AS STRING)", "CAST(try_variant_get(payload, '$.b.c[1]', 'double') AS STRING)",
            "to_json(typed)", "schema_of_variant(typed)", "CAST(variant_get(typed, '$.d', 'date') AS STRING)");

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void sparksVariantColumnsArePublishedAsVariants() throws IOException {
        assertThat(published(golden().resolve("table"), "variants", TABLE))
                .isEqualTo(Files.readAllLines(golden().resolve("spark.tsv"), StandardCharsets.UTF_8));
    }

    /** Spark's partitioned and column-mapped (name, id) tables with VARIANT columns ({@code golden/variant/layouts}). */
    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "name", "id"})
    void sparksPartitionedAndColumnMappedVariantTablesArePublishedAsVariants(String layout) throws IOException {
        List<Field> fields = new ArrayList<>(TABLE.fields());
        fields.add(new Field("part", DataType.INT, true));
        assertThat(published(golden().resolve("layouts").resolve(layout), "variants-" + layout, new Schema(fields)))
                .isEqualTo(Files.readAllLines(golden().resolve("spark.tsv"), StandardCharsets.UTF_8));
    }

    /** What the source publishes of a copy of {@code sparkTable} (whose schema is {@code schema}), as Spark's query gives it. */
    private List<String> published(Path sparkTable, String name, Schema schema) throws IOException {
        Path table = Folders.copy(sparkTable, dir.resolve(name));
        DeltaSourceConfig c = DeltaSourceConfig.builder(name, table.toString()).build();
        try (DeltaSource source = new DeltaSource(c, KAFKA.client())) {
            assertThat(source.schema()).isEqualTo(schema);
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(9);
        }
        RowJson json = new RowJson(schema);
        Transform query = Transform.compile(TABLE, null, QUERY);
        List<Object[]> rows = new ArrayList<>();
        for (String v : TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic())) {
            rows.add(json.parse(v.getBytes(StandardCharsets.UTF_8)));
        }
        return rows.stream().sorted(Comparator.comparing(r -> (Integer) r[0])).map(r -> {
            List<String> cells = new ArrayList<>();
            for (Object v : query.apply(java.util.Arrays.copyOf(r, TABLE.size()))) {
                cells.add(v == null ? "NULL" : String.valueOf(v));
            }
            return String.join("\t", cells);
        }).toList();
    }

    private static Path golden() {
        try {
            return Path.of(Objects.requireNonNull(VariantSourceTest.class.getResource("/golden/variant"), "golden/variant").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
