package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowPackTest {
    private static final RowJson ROWS = new RowJson(Schema.parse("id INT, user STRING, note STRING"));

    private static List<String> rowsOf(byte[] value) {
        List<String> out = new ArrayList<>();
        int n = RowPack.forEachRow(value, (bytes, offset, length) -> out.add(new String(bytes, offset, length, StandardCharsets.UTF_8)));
        assertThat(n).isEqualTo(out.size());
        return out;
    }

    @Test
    void packedRowsComeBackInOrderAndParse() {
        RowPack pack = new RowPack(16);
        Object[][] rows = {{1, "a", "line one\nline two"}, {2, "b", null}, {3, "ü", "\r\n\t"}};
        for (Object[] row : rows) {
            pack.add(ROWS.write(row), -1);
        }
        assertThat(pack.rows()).isEqualTo(3);
        byte[] value = pack.take();
        List<String> texts = rowsOf(value);
        assertThat(texts).hasSize(3);
        assertThat(texts.get(0)).isEqualTo("{\"id\":1,\"user\":\"a\",\"note\":\"line one\\nline two\"}");
        for (int i = 0; i < rows.length; i++) {
            assertThat(ROWS.parse(texts.get(i))).containsExactly(rows[i]);
        }
        assertThat(pack.rows()).isZero();
        assertThat(pack.bytes()).isZero();
    }

    @Test
    void rowsWrittenStraightIntoThePackAreTheirCanonicalJsonEvenWhereTheFastPathGivesUp() {
        RowPack direct = new RowPack(16);
        RowPack copied = new RowPack(16);
        // "line one\nline two" and "\r\n\t" need escaping: the fast path gives up halfway and Jackson writes them
        Object[][] rows = {{1, "a", "line one\nline two"}, {2, "b", null}, {3, "ü", "\r\n\t"}, {4, "d", "plain"}};
        for (Object[] row : rows) {
            direct.add(ROWS, row, row[0].equals(3) ? 9_000 : -1);
            copied.add(ROWS.write(row), -1);
        }
        assertThat(direct.rows()).isEqualTo(4);
        assertThat(direct.timestamp()).isEqualTo(9_000L);
        assertThat(new String(direct.take(), StandardCharsets.UTF_8)).isEqualTo(new String(copied.take(), StandardCharsets.UTF_8));
    }

    @Test
    void aOneRowRecordIsAPackOfOne() {
        byte[] single = ROWS.write(new Object[] {7, "x", "y"});
        assertThat(rowsOf(single)).containsExactly(new String(single, StandardCharsets.UTF_8));
        assertThat(rowsOf(new byte[0])).isEmpty();
        assertThat(rowsOf("{\"id\":1}\n\n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8))).containsExactly("{\"id\":1}", "{\"id\":2}");
    }

    @Test
    void theRecordTimestampIsTheNewestRowsAndNoneWithoutEventTimes() {
        RowPack pack = new RowPack(64);
        pack.add(ROWS.write(new Object[] {1, "a", null}), -1);
        assertThat(pack.timestamp()).isNull();
        pack.add(ROWS.write(new Object[] {2, "a", null}), 5_000);
        pack.add(ROWS.write(new Object[] {3, "a", null}), 3_000);
        assertThat(pack.timestamp()).isEqualTo(5_000L);
        pack.clear();
        assertThat(pack.timestamp()).isNull();
        assertThat(pack.rows()).isZero();
    }
}
