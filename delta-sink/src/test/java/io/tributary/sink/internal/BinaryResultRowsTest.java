package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.sink.SinkBadRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** A windowed aggregation's result rows in binary (Spark's window STRUCT among them) reach the table as their JSON does. */
class BinaryResultRowsTest {
    private static final Schema RESULTS = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");

    private static ConsumerRecord<byte[], byte[]> record(byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>("results", 0, 7L, -1L, TimestampType.CREATE_TIME, -1, value.length, null, value, headers, Optional.empty());
    }

    @Test
    void binaryRowsWithAStructGiveTheRowsOfTheirJson() {
        RowJson json = new RowJson(RESULTS);
        List<Object[]> written = List.of(
                new Object[] {new Object[] {1_767_225_600_000_000L, 1_767_226_200_000_000L}, "alice", 0.1 + 0.2},
                new Object[] {new Object[] {1_767_226_200_000_000L, 1_767_226_800_000_000L}, null, -3.5},
                new Object[] {null, "bob", null});
        RowPack binary = new RowPack(64, RowBinary.of(RESULTS));
        RowPack lines = new RowPack(64);
        for (Object[] row : written) {
            binary.add(json, row, -1);
            lines.add(json, row, -1);
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.ROWS_HEADER, RESULTS.toDdl().getBytes(StandardCharsets.UTF_8));
        List<Object[]> fromBinary = new ArrayList<>();
        List<Object[]> fromJson = new ArrayList<>();
        BadRows bad = new BadRows(SinkBadRecords.FAIL, "test/sink", Map.of(), "sink.delta.badRecord");
        try (RecordRows rows = new RecordRows("results", json, bad)) {
            assertThat(rows.parse(record(binary.take(), headers), fromBinary::add)).isEqualTo(3);
            assertThat(rows.parse(record(lines.take(), new RecordHeaders()), fromJson::add)).isEqualTo(3);
        }
        for (int i = 0; i < written.size(); i++) {
            assertThat(Arrays.deepEquals(fromBinary.get(i), fromJson.get(i)))
                    .as("%s vs %s", Arrays.deepToString(fromBinary.get(i)), Arrays.deepToString(fromJson.get(i))).isTrue();
        }
        assertThat(((Object[]) fromBinary.get(0)[0])[1]).isEqualTo(1_767_226_200_000_000L);
        assertThat(fromBinary.get(0)[2]).isEqualTo(0.1 + 0.2);
    }
}
