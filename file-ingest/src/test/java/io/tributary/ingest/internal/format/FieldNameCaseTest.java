package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.schema.Schema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JSON field fills the column of exactly its name, as Spark 4.2's JSON reader: {@code USER} is not
 * the column {@code user}. Nor is it a new column (column names are case-insensitive): rescue keeps
 * it, as Auto Loader rescues a field whose case does not match; the other modes leave it.
 */
class FieldNameCaseTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING");
    private static final String LINES = "{\"id\":7,\"USER\":\"G\"}\n{\"id\":8,\"USER\":\"H\",\"user\":\"h\"}\n";

    private static List<Object[]> read(RecordReaders readers) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        RawInput raw = new RawInput(new ByteArrayInputStream(LINES.getBytes(StandardCharsets.UTF_8)));
        try (RecordReader records = readers.open("a.json", raw, null)) {
            while (records.next()) {
                rows.add(records.row());
            }
        }
        return rows;
    }

    private static IngestConfig config(SchemaEvolution mode) {
        return IngestConfig.builder("case", Path.of("in"), SCHEMA).schemaEvolution(mode).build();
    }

    @Test
    void aFieldInAnotherCaseIsNotTheColumn() throws IOException {
        assertThat(read(new RecordReaders(config(SchemaEvolution.NONE))))
                .containsExactly(new Object[] {7, null}, new Object[] {8, "h"});
    }

    @Test
    void rescueKeepsAFieldInAnotherCase() throws IOException {
        assertThat(read(new RecordReaders(config(SchemaEvolution.RESCUE)))).containsExactly(
                new Object[] {7, null, "{\"USER\":\"G\",\"_file_path\":\"a.json\"}"},
                new Object[] {8, "h", "{\"USER\":\"H\",\"_file_path\":\"a.json\"}"});
    }

    @Test
    void aFieldInAnotherCaseIsNoNewColumn() throws IOException {
        assertThat(read(new RecordReaders(config(SchemaEvolution.ADD_NEW_COLUMNS))))
                .containsExactly(new Object[] {7, null}, new Object[] {8, "h"});
        RecordReaders collecting = RecordReaders.collecting(config(SchemaEvolution.ADD_NEW_COLUMNS));
        read(collecting);
        assertThat(collecting.newColumns()).isEmpty();
        assertThat(read(new RecordReaders(config(SchemaEvolution.FAIL_ON_NEW_COLUMNS))))
                .containsExactly(new Object[] {7, null}, new Object[] {8, "h"});
    }
}
