package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column named as Spark names an expression it is not told a name for ({@code lower(user)}, {@code (amt + 1)}) has characters
 * Delta takes in a column name only with column mapping: the table is not created, and the refusal names the column and
 * Spark's own error (DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES, golden/sql); with column mapping the table takes it.
 */
class ColumnNameCharactersTest {
    @TempDir
    Path dir;

    private static void append(DeltaTableWriter writer) {
        writer.append("app", 0, List.<Object[]>of(new Object[] {1, "a"}), Map.of(), new SinkOffsets("app", "events", "tid", Map.of(0, 1L)));
    }

    @Test
    void aNameWithASpaceOrParenthesisIsRefusedNamingItUnlessTheTableMapsItsColumns() {
        Schema schema = Schema.parse("id INT, `lower(user)` STRING");
        String plain = dir.resolve("plain").toString();
        DeltaTableWriter writer = new DeltaTableWriter(KernelEngines.create(), plain, Map.of(), Partitioning.parse(List.of(), schema));
        assertThatThrownBy(() -> append(writer)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("column 'lower(user)'").hasMessageContaining("DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES")
                .hasMessageContaining("delta.columnMapping.mode");
        assertThat(DeltaTables.exists(plain)).isFalse();
        assertThatThrownBy(() -> TableSchemaCheck.namesDeltaTakes("t", Schema.parse("s STRUCT<`a b`: INT>"), Map.of()))
                .hasMessageContaining("column 's.a b'");

        String mapped = dir.resolve("mapped").toString();
        append(new DeltaTableWriter(KernelEngines.create(), mapped, Map.of("delta.columnMapping.mode", "name"),
                Partitioning.parse(List.of(), schema)));
        assertThat(DeltaTables.schema(mapped).orElseThrow().toDdl()).isEqualTo("id INT, `lower(user)` STRING");
        assertThat(DeltaTables.readRows(mapped)).containsExactly(new Object[] {1, "a"});
    }
}
