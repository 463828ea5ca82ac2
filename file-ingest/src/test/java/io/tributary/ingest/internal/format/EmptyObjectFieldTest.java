package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A field that is only ever {@code {}} (or arrays of them) is no column, as Spark 4.2's JSON inference drops it: not when the
 * schema is inferred ({@code golden/inference/json-empty-objects}), nor as a new column when the schema evolves; one that is
 * {@code {}} on one line and an object with fields on another is that object's STRUCT.
 */
class EmptyObjectFieldTest {
    private static final Schema SCHEMA = Schema.parse("id INT");

    private static List<Object[]> read(RecordReaders readers, String lines) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        RawInput raw = new RawInput(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)));
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
    void aNewFieldOfOnlyEmptyObjectsIsNoNewColumn() throws IOException {
        String lines = "{\"id\":7,\"e\":{}}\n{\"id\":8,\"e\":{},\"n\":[{}]}\n";
        assertThat(read(new RecordReaders(config(SchemaEvolution.ADD_NEW_COLUMNS)), lines))
                .containsExactly(new Object[] {7}, new Object[] {8});
        RecordReaders collecting = RecordReaders.collecting(config(SchemaEvolution.ADD_NEW_COLUMNS));
        read(collecting, lines);
        assertThat(collecting.newColumns()).isEmpty();
        assertThat(read(new RecordReaders(config(SchemaEvolution.FAIL_ON_NEW_COLUMNS)), lines))
                .containsExactly(new Object[] {7}, new Object[] {8});
    }

    @Test
    void aNewFieldThatIsEmptyOnceAndAnObjectLaterIsItsStruct() throws IOException {
        RecordReaders collecting = RecordReaders.collecting(config(SchemaEvolution.ADD_NEW_COLUMNS));
        read(collecting, "{\"id\":7,\"s\":{},\"a\":[]}\n{\"id\":8,\"s\":{\"x\":1,\"k\":{}},\"a\":[2]}\n");
        assertThat(collecting.newColumns()).isEqualTo(Map.of("s", DataType.struct(Schema.parse("x BIGINT")), "a",
                DataType.array(DataType.LONG)));
    }
}
