package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Binary rows read back equal to the rows the canonical JSON reads back to, for every flat type. */
class RowBinaryTest {
    private static final Schema SCHEMA = Schema.parse("b TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, "
            + "m DECIMAL(10,2), big DECIMAL(38,6), t STRING, ok BOOLEAN, day DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, raw BINARY");
    private static final RowJson JSON = new RowJson(SCHEMA);

    private static Object[] random(Random r) {
        Object[] row = new Object[SCHEMA.size()];
        row[0] = (byte) r.nextInt();
        row[1] = (short) r.nextInt();
        row[2] = r.nextInt();
        row[3] = r.nextBoolean() ? r.nextLong() : (long) r.nextInt(1000);
        row[4] = pick(r, r.nextFloat() * 1e6f, -0.0f, Float.NaN, Float.NEGATIVE_INFINITY, Float.MIN_VALUE);
        row[5] = pick(r, r.nextDouble() * 1e9, -0.0, Double.NaN, Double.POSITIVE_INFINITY, 0.1 + 0.2);
        row[6] = BigDecimal.valueOf(r.nextInt(), 2);
        row[7] = new BigDecimal(new java.math.BigInteger(120, r).negate(), 6);
        row[8] = pick(r, "user_" + r.nextInt(10_000), "", "é ü ß", "漢字 and 😀", "a\nb\"c\\");
        row[9] = r.nextBoolean();
        row[10] = r.nextInt(200_000) - 100_000;
        row[11] = r.nextLong() % 250_000_000_000_000_000L;
        row[12] = r.nextLong() % 250_000_000_000_000_000L;
        byte[] raw = new byte[r.nextInt(20)];
        r.nextBytes(raw);
        row[13] = raw;
        for (int i = 0; i < row.length; i++) {
            if (r.nextInt(8) == 0) {
                row[i] = null;
            }
        }
        return row;
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... values) {
        return values[r.nextInt(values.length)];
    }

    @Test
    void rowsReadBackAsTheirJsonReadsBack() {
        Random r = new Random(41);
        List<Object[]> written = new ArrayList<>();
        RowPack pack = new RowPack(64, RowBinary.of(SCHEMA));
        for (int n = 0; n < 2_000; n++) {
            Object[] row = random(r);
            written.add(row);
            pack.add(JSON, row, -1);
        }
        RowBinary binary = RowBinary.of(SCHEMA);
        RowBinary.Cursor rows = binary.cursor(pack.take());
        for (Object[] row : written) {
            assertThat(rows.hasNext()).isTrue();
            Object[] read = rows.next();
            Object[] viaJson = JSON.parse(JSON.write(row));
            assertThat(Arrays.deepEquals(read, viaJson)).as("%s vs %s", Arrays.deepToString(read), Arrays.deepToString(viaJson)).isTrue();
            assertThat(binary.json(read)).isEqualTo(JSON.write(row));
        }
        assertThat(rows.hasNext()).isFalse();
    }

    @Test
    void arraysMapsAndVariantsStayJsonStructsAreNotFlat() {
        assertThat(RowBinary.of(Schema.parse("id INT, tags ARRAY<STRING>"))).isNull();
        assertThat(RowBinary.of(Schema.parse("id INT, p STRUCT<x: INT, tags: ARRAY<STRING>>"))).isNull();
        assertThat(RowBinary.of(Schema.parse("id INT, m MAP<STRING, INT>"))).isNull();
        assertThat(RowBinary.of(Schema.parse("id INT, p STRUCT<x: INT>"))).isNotNull();
        assertThat(RowBinary.flat(Schema.parse("id INT, p STRUCT<x: INT>"))).isFalse();
        assertThat(RowBinary.flat(SCHEMA)).isTrue();
    }

    /** The rows of a windowed aggregation: Spark's window STRUCT, the group, the aggregate; a struct within a struct too. */
    @Test
    void structsReadBackAsTheirJsonReadsBack() {
        Schema s = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE, "
                + "deep STRUCT<a: STRUCT<x: INT, y: STRING>, b: DECIMAL(10,2)>");
        RowJson json = new RowJson(s);
        Random r = new Random(42);
        List<Object[]> written = new ArrayList<>();
        RowPack pack = new RowPack(64, RowBinary.of(s));
        for (int n = 0; n < 500; n++) {
            long start = r.nextLong() % 250_000_000_000_000_000L;
            Object[] row = {new Object[] {start, start + 600_000_000L}, "user_" + r.nextInt(100), r.nextDouble() * 1e6,
                    new Object[] {r.nextBoolean() ? null : new Object[] {r.nextInt(), r.nextBoolean() ? null : "é" + n},
                            BigDecimal.valueOf(r.nextInt(), 2)}};
            if (n % 7 == 0) {
                row[0] = null;
            }
            written.add(row);
            pack.add(json, row, -1);
        }
        RowBinary binary = RowBinary.of(s);
        RowBinary.Cursor rows = binary.cursor(pack.take());
        for (Object[] row : written) {
            Object[] read = rows.next();
            Object[] viaJson = json.parse(json.write(row));
            assertThat(Arrays.deepEquals(read, viaJson)).as("%s vs %s", Arrays.deepToString(read), Arrays.deepToString(viaJson)).isTrue();
            assertThat(binary.json(read)).isEqualTo(json.write(row));
        }
        assertThat(rows.hasNext()).isFalse();
    }

    @Test
    void sameColumnsMeansTheSameNamesAndTypesInOrderWhateverTheirNullability() {
        RowBinary binary = RowBinary.of(Schema.parse("id INT, user STRING"));
        assertThat(binary.sameColumns(Schema.parse("id INT NOT NULL, user STRING"))).isTrue();
        assertThat(binary.sameColumns(Schema.parse("user STRING, id INT"))).isFalse();
        assertThat(binary.sameColumns(Schema.parse("id BIGINT, user STRING"))).isFalse();
        assertThat(binary.sameColumns(Schema.parse("id INT, user STRING, amt DOUBLE"))).isFalse();
    }

    @Test
    void aValueCutShortIsAnErrorNamingTheSchema() {
        Schema s = Schema.parse("id INT, user STRING");
        RowPack pack = new RowPack(64, RowBinary.of(s));
        pack.add(new RowJson(s), new Object[] {7, "alice"}, -1);
        byte[] value = pack.take();
        RowBinary.Cursor rows = RowBinary.of(s).cursor(Arrays.copyOf(value, value.length - 2));
        assertThatThrownBy(rows::next).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a binary row of id INT, user STRING ends early");
    }
}
