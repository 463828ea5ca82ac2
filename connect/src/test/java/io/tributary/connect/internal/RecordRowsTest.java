package io.tributary.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** A record's value, whatever converter made it, gives the rows tributary run's sink would write. */
class RecordRowsTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final RowJson JSON = new RowJson(SCHEMA);
    private static final String ROW = "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}";
    /** The row as tributary run holds it: ts in microseconds since the epoch. */
    private static final String EXPECTED = "[1, a, 5.0, 1767261660000000]";

    private static SinkRecord record(Object value) {
        return new SinkRecord("t", 0, null, null, null, value, 7);
    }

    private static List<String> rows(Object value) {
        return RecordRows.rows(record(value), JSON).stream().map(Arrays::deepToString).toList();
    }

    @Test
    void jsonTextBytesMapsAndStructsGiveTheSameRow() {
        assertThat(rows(ROW)).containsExactly(EXPECTED);
        assertThat(rows(ROW.getBytes(StandardCharsets.UTF_8))).containsExactly(EXPECTED);

        Map<String, Object> map = new LinkedHashMap<>(); // JsonConverter with schemas.enable=false
        map.put("id", 1L);
        map.put("user", "a");
        map.put("amt", 5.0);
        map.put("ts", "2026-01-01T10:01:00Z");
        assertThat(rows(map)).containsExactly(EXPECTED);

        org.apache.kafka.connect.data.Schema s = SchemaBuilder.struct().field("id", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
                .field("user", org.apache.kafka.connect.data.Schema.STRING_SCHEMA).field("amt", org.apache.kafka.connect.data.Schema.FLOAT64_SCHEMA)
                .field("ts", Timestamp.SCHEMA).build();
        Struct struct = new Struct(s).put("id", 1).put("user", "a").put("amt", 5.0)
                .put("ts", new java.util.Date(1_767_261_660_000L));
        assertThat(rows(struct)).containsExactly(EXPECTED);
    }

    @Test
    void packedRecordsOfTributaryRunGiveEveryRowAndMarkersAreNoRows() {
        assertThat(rows(ROW + "\n" + ROW.replace("\"id\": 1", "\"id\": 2"))).hasSize(2).first().isEqualTo(EXPECTED);
        ConnectHeaders headers = new ConnectHeaders();
        headers.addBytes(Topics.MARKER_HEADER, Topics.WATERMARK);
        SinkRecord marker = new SinkRecord("t", 0, null, null, null, "{\"batchId\":0,\"watermarkMs\":0}", 8, null, null, headers);
        assertThat(RecordRows.isMarker(marker)).isTrue();
        assertThat(RecordRows.isMarker(record(ROW))).isFalse();
    }

    @Test
    void aValueThatIsNoRowNamesTheFieldAndThePackedRow() {
        assertThatThrownBy(() -> rows(ROW.replace("\"id\": 1", "\"id\": \"one\""))).isInstanceOf(BadRecordException.class)
                .satisfies(e -> assertThat(((BadRecordException) e).field()).isEqualTo("id"));
        assertThatThrownBy(() -> rows(ROW + "\n{\"id\": \"two\"}")).isInstanceOf(BadRecordException.class)
                .hasMessageContaining("row 2 of the record");
        assertThatThrownBy(() -> rows(null)).isInstanceOf(BadRecordException.class).hasMessageContaining("tombstone");
    }
}
