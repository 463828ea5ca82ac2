package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast paths of {@link RowJson} ({@link FlatRowReader}, {@link FlatRowWriter}) against the
 * Jackson paths they stand in for: the same row or the same error for every line, the same bytes
 * for every row.
 */
class RowJsonFastPathTest {
    private static final RowJson SEED = new RowJson(Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP"));
    private static final RowJson WIDE = new RowJson(Schema.parse(
            "b BYTE, s SHORT, i INT, l LONG, f FLOAT, d DOUBLE, str STRING, ok BOOLEAN, day DATE, ts TIMESTAMP, "
                    + "ntz TIMESTAMP_NTZ, bin BINARY, `Mixed Case` STRING"));
    private static final RowJson STRICT = new RowJson(Schema.parse("id INT NOT NULL, name STRING NOT NULL"));
    /** An aggregation's result rows: Spark's window struct first. */
    private static final RowJson NESTED = new RowJson(Schema.parse(
            "window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE, deep STRUCT<a: INT, b: STRUCT<c: STRING>>"));

    /** Lines chosen to sit on the fast path's edges: each must parse as Jackson parses it, or fail as it fails. */
    private static final String[] LINES = {
        "{\"id\":1,\"user\":\"user_0001\",\"amt\":1.23,\"ts\":\"2026-01-01T00:00:01Z\"}",
        "{\"ts\":\"2026-01-01 00:00:01\",\"amt\":7,\"user\":\"x\",\"id\":-5}",
        "  { \"id\" : 1 , \"user\" : \"a b\" }  ",
        "{\"id\":1}\r", "{\"id\":1}\t\n", "{}", " {} ", "{ }", "{", "}", "", " ", "[]", "[1]", "null", "1", "\"a\"",
        "{\"id\":1,}", "{,\"id\":1}", "{\"id\":1 \"user\":\"a\"}", "{\"id\"1}", "{\"id\":}", "{\"id\":1}}", "{\"id\":1} {\"id\":2}",
        "{\"id\":1}x", "{\"id\":1} // c", "{'id':1}", "{\"id\":'a'}", "{id:1}", "{\"id\":1", "{\"id\":\"1\"}",
        "{\"id\":01}", "{\"id\":-0}", "{\"id\":-}", "{\"id\":+1}", "{\"id\":1.0}", "{\"id\":1e2}", "{\"id\":2147483647}",
        "{\"id\":2147483648}", "{\"id\":-2147483648}", "{\"id\":-2147483649}", "{\"id\":99999999999999999999}",
        "{\"id\":1x}", "{\"id\":1-}", "{\"id\":1.}", "{\"id\":.5}", "{\"id\":NaN}", "{\"id\":true}", "{\"id\":nul}",
        "{\"id\":nullx}", "{\"id\":null,\"id\":3}", "{\"id\":3,\"id\":null}", "{\"id\":3,\"id\":\"x\"}", "{\"id\":\"x\",\"id\":3}",
        "{\"ID\":4}", "{\"Id\":4,\"USER\":\"u\"}", "{\"other\":{\"a\":[1,2]},\"id\":1}", "{\"other\":[1,{\"x\":2}],\"id\":1}",
        "{\"other\":\"x\\\"y\",\"id\":1}", "{\"other\":tru,\"id\":1}", "{\"other\":1.5e300,\"id\":1}", "{\"other\":01,\"id\":1}",
        "{\"user\":\"a\\nb\"}", "{\"user\":\"a\\u00e9\"}", "{\"user\":\"é\"}", "{\"user\":\"tab\there\"}", "{\"user\":3}",
        "{\"user\":true}", "{\"user\":null}", "{\"user\":{\"a\":1}}", "{\"user\":[1]}", "{\"user\":\"\"}", "{\"us\\u0065r\":\"x\"}",
        "{\"amt\":1}", "{\"amt\":-0}", "{\"amt\":-0.0}", "{\"amt\":0.1}", "{\"amt\":1E400}", "{\"amt\":1e-400}", "{\"amt\":123456789012345678}",
        "{\"amt\":1234567890123456789}", "{\"amt\":9007199254740993}", "{\"amt\":4.35}", "{\"amt\":2.2250738585072011e-308}",
        "{\"amt\":\"NaN\"}", "{\"amt\":\"Infinity\"}", "{\"amt\":NaN}", "{\"amt\":-Infinity}", "{\"amt\":\"1.5\"}", "{\"amt\":1.5e}",
        "{\"amt\":1.5e+}", "{\"amt\":1.5E-3}", "{\"amt\":1.5e+3}",
        "{\"ts\":\"2026-01-01T00:00:00.123456789Z\"}", "{\"ts\":\"2026-1-1 1:2\"}", "{\"ts\":\"2026-01-01T00:00:00+01:00\"}",
        "{\"ts\":\"2026-02-30T00:00:00Z\"}", "{\"ts\":\"yesterday\"}", "{\"ts\":1767225600}", "{\"ts\":1.5}", "{\"ts\":\"\"}",
        "{\"ts\":\"2026-01-01T00:00:00Z \"}", "{\"ts\":\" 2026-01-01\"}",
    };

    private static final String[] WIDE_LINES = {
        "{\"b\":127,\"s\":-32768,\"i\":7,\"l\":-9223372036854775808,\"f\":1.1,\"d\":1.1,\"str\":\"s\",\"ok\":true,\"day\":\"2026-03-04\","
                + "\"ts\":\"2026-03-04T05:06:07Z\",\"ntz\":\"2026-03-04T05:06:07\",\"bin\":\"AAEC\",\"mixed case\":\"m\"}",
        "{\"b\":128}", "{\"b\":-129}", "{\"s\":32768}", "{\"l\":9223372036854775807}", "{\"l\":123456789012345678}",
        "{\"l\":-123456789012345678}", "{\"f\":3.4e39}", "{\"f\":16777217}", "{\"f\":0.1}", "{\"ok\":false}", "{\"ok\":1}",
        "{\"ok\":\"true\"}", "{\"day\":\"2026-13-01\"}", "{\"day\":\"2026\"}", "{\"day\":\"2026-03-04T10:00:00Z\"}",
        "{\"ntz\":\"2026-03-04T05:06:07Z\"}", "{\"ntz\":\"2026-03-04 05:06:07.5\"}", "{\"bin\":\"not base64!\"}", "{\"bin\":\"\"}",
        "{\"MIXED CASE\":\"m\"}", "{\"Mixed Case\":\"m\"}", "{\"str\":-12.50e1}", "{\"b\":null,\"ok\":null}",
    };

    private static final String[] STRICT_LINES = {
        "{\"id\":1,\"name\":\"a\"}", "{\"id\":1}", "{\"name\":\"a\"}", "{\"id\":null,\"name\":\"a\"}", "{}",
    };

    private static final String[] NESTED_LINES = {
        "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",\"end\":\"2026-01-01T10:10:00Z\"},\"user\":\"a\",\"t\":8.0}",
        "{\"window\":{\"end\":\"2026-01-01T10:10:00Z\"},\"user\":\"a\"}", "{\"window\":{}}", "{\"window\":null}",
        "{\"window\":{\"start\":\"x\"}}", "{\"window\":{\"start\":1}}", "{\"window\":\"2026-01-01\"}", "{\"window\":[]}",
        "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\"},\"window\":null}", "{\"window\":{\"START\":\"2026-01-01T10:00:00Z\"}}",
        "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",\"other\":{\"x\":1}}}", "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\"}",
        "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",}}", "{\"deep\":{\"a\":1,\"b\":{\"c\":\"x\"}}}", "{\"deep\":{\"b\":{\"c\":3}}}",
        "{\"deep\":{\"a\":1,\"b\":{\"c\":\"x\"}}}x", "{ \"deep\" : { \"b\" : { } } }", "{\"other\":{\"a\":1},\"user\":\"u\"}",
    };

    private static void same(RowJson json, String line) {
        same(json, line.getBytes(StandardCharsets.UTF_8));
    }

    private static void same(RowJson json, byte[] line) {
        byte[] padded = new byte[line.length + 4];
        Arrays.fill(padded, (byte) '}');
        System.arraycopy(line, 0, padded, 2, line.length);
        Object fast = outcome(() -> json.parse(padded, 2, line.length));
        Object slow = outcome(() -> json.parseWithJackson(line, 0, line.length));
        assertThat(fast).as("%s", new String(line, StandardCharsets.UTF_8)).isEqualTo(slow);
    }

    /** The row as a list of values with their classes (so 1 and 1L differ), or the error's field and reason. */
    private static Object outcome(java.util.function.Supplier<Object[]> parse) {
        try {
            return describe(parse.get());
        } catch (BadRecordException e) {
            return "bad " + e.field() + ": " + e.reason();
        }
    }

    private static List<Object> describe(Object[] row) {
        List<Object> values = new ArrayList<>();
        for (Object v : row) {
            values.add(v == null ? "null" : v instanceof Object[] struct ? describe(struct)
                    : v.getClass().getSimpleName() + ":" + (v instanceof byte[] b ? Arrays.toString(b) : v));
        }
        return values;
    }

    @Test
    void edgeLinesParseAsJacksonParsesThem() {
        for (String line : LINES) {
            same(SEED, line);
        }
        for (String line : WIDE_LINES) {
            same(WIDE, line);
        }
        for (String line : STRICT_LINES) {
            same(STRICT, line);
        }
        for (String line : NESTED_LINES) {
            same(NESTED, line);
        }
        for (int length : new int[] {9_999, 10_000, 10_001, 60_000}) {
            same(SEED, "{\"user\":\"" + "u".repeat(length) + "\"}");
            same(SEED, "{\"" + "n".repeat(length) + "\":1,\"id\":2}");
        }
    }

    @Test
    void mutatedLinesParseAsJacksonParsesThem() {
        Random random = new Random(42);
        byte[] alphabet = "{}[]\":,.-+eE0123456789 \t\\'nultrfasNI/xé".getBytes(StandardCharsets.UTF_8);
        List<String> seeds = new ArrayList<>(Arrays.asList(LINES));
        seeds.addAll(Arrays.asList(WIDE_LINES));
        for (int n = 0; n < 10_000; n++) {
            byte[] line = seeds.get(random.nextInt(seeds.size())).getBytes(StandardCharsets.UTF_8);
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits && line.length > 0; e++) {
                int at = random.nextInt(line.length);
                switch (random.nextInt(3)) {
                    case 0 -> line[at] = alphabet[random.nextInt(alphabet.length)];
                    case 1 -> line = concat(Arrays.copyOf(line, at), Arrays.copyOfRange(line, at + 1, line.length));
                    default -> line = concat(concat(Arrays.copyOf(line, at), new byte[] {alphabet[random.nextInt(alphabet.length)]}),
                            Arrays.copyOfRange(line, at, line.length));
                }
            }
            same(SEED, line);
            same(WIDE, line);
        }
    }

    @Test
    void decimalNumbersParseAsJacksonParsesThem() {
        Random random = new Random(3);
        for (int n = 0; n < 50_000; n++) {
            StringBuilder number = new StringBuilder(random.nextBoolean() ? "-" : "");
            int digits = 1 + random.nextInt(random.nextBoolean() ? 8 : 20);
            int point = random.nextInt(digits + 1);
            for (int d = 0; d < digits; d++) {
                if (d == point && d > 0) {
                    number.append('.');
                }
                number.append(d == 0 && digits > 1 && point != 1 ? (char) ('1' + random.nextInt(9)) : (char) ('0' + random.nextInt(10)));
            }
            if (random.nextInt(4) == 0) {
                number.append(random.nextBoolean() ? 'e' : 'E').append(random.nextBoolean() ? "-" : random.nextBoolean() ? "+" : "")
                        .append(random.nextInt(random.nextBoolean() ? 25 : 400));
            }
            same(SEED, "{\"amt\":" + number + "}");
            same(WIDE, "{\"f\":" + number + ",\"d\":" + number + "}");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void rowsAreWrittenByteForByteAsJacksonWritesThem() {
        Random random = new Random(7);
        String[] strings = {"", "user_0001", "a b", "é", "日本", "quote\"", "back\\slash", "tab\t", "nl\n", "\u0001", "\u007f",
            "emoji \uD83D\uDE00", "lone \uD83D", "/slash", "\u2028"};
        double[] doubles = {0.0, -0.0, 1.0, 0.1, 1.23, 1e7, 1e-3, 9.999e-4, 1e21, 1e22, 1.0e23, 123456789.125, Double.MIN_VALUE,
            Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2.82879384806159E17};
        for (int n = 0; n < 10_000; n++) {
            Object[] row = new Object[WIDE.schema().size()];
            row[0] = (byte) random.nextInt();
            row[1] = (short) random.nextInt();
            row[2] = random.nextInt();
            row[3] = random.nextLong();
            row[4] = random.nextBoolean() ? (float) doubles[random.nextInt(doubles.length)] : Float.intBitsToFloat(random.nextInt());
            row[5] = random.nextBoolean() ? doubles[random.nextInt(doubles.length)]
                    : random.nextBoolean() ? random.nextInt(100_000) / 100.0 : Double.longBitsToDouble(random.nextLong());
            row[6] = strings[random.nextInt(strings.length)];
            row[7] = random.nextBoolean();
            row[8] = random.nextInt(5_000_000) - 2_500_000;
            row[9] = random.nextLong() / 1000;
            row[10] = random.nextBoolean() ? random.nextLong() / 1000 : random.nextInt() * 1_000_000L;
            byte[] bin = new byte[random.nextInt(5)];
            random.nextBytes(bin);
            row[11] = bin;
            row[12] = strings[random.nextInt(strings.length)];
            for (int c = 0; c < row.length; c++) {
                if (random.nextInt(8) == 0) {
                    row[c] = null;
                }
            }
            assertThat(written(() -> WIDE.write(row))).isEqualTo(written(() -> WIDE.writeWithJackson(row)));
        }
        assertThat(new String(SEED.write(new Object[] {1, "user_0001", 1.23, 0L}), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":1,\"user\":\"user_0001\",\"amt\":1.23,\"ts\":\"1970-01-01T00:00:00Z\"}");
        assertThat(new RowJson(Schema.parse("x INT")).write(new Object[] {null})).isEqualTo("{\"x\":null}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void extremeNumbersAndDatesAreWrittenAsJacksonWritesThem() {
        RowJson json = new RowJson(Schema.parse("i INT, l LONG, day DATE"));
        int[] ints = {0, -1, 9, 10, -10, Integer.MAX_VALUE, Integer.MIN_VALUE};
        long[] longs = {0, -1, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 1_000_000_000_000L};
        int[] days = {0, -1, -719_528, -719_529, -719_468, -719_469, 2_932_896, 2_932_897, Integer.MAX_VALUE / 1000, Integer.MIN_VALUE / 1000};
        for (int n = 0; n < ints.length * longs.length * days.length; n++) {
            Object[] row = {ints[n % ints.length], longs[n / ints.length % longs.length], days[n / ints.length / longs.length]};
            assertThat(written(() -> json.write(row))).isEqualTo(written(() -> json.writeWithJackson(row)));
        }
    }

    /** The bytes as text (with an escape for each byte that is not printable ASCII), or the error. */
    private static String written(java.util.function.Supplier<byte[]> write) {
        try {
            StringBuilder s = new StringBuilder();
            for (byte b : write.get()) {
                s.append(b >= 0x20 && b < 0x7f ? Character.toString(b) : String.format("<%02x>", b & 0xff));
            }
            return s.toString();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    @Test
    void shortDecimalsAreWrittenAsDoubleToStringWritesThem() {
        double[] scale = {1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7};
        for (int k = 1; k <= 3; k++) {
            for (long m = 0; m < 400_000; m++) {
                double d = m / scale[k];
                assertShortDecimal(d);
                assertShortDecimal(-d);
            }
        }
        Random random = new Random(11);
        for (int n = 0; n < 400_000; n++) {
            assertShortDecimal(random.nextInt(5) == 0 ? Double.longBitsToDouble(random.nextLong())
                    : (random.nextLong() % 10_000_000_000_000L) / scale[1 + random.nextInt(7)] / (random.nextBoolean() ? 1 : 1000));
        }
        for (double d : new double[] {0.0, -0.0, 0.001, 0.0009999999999999998, 9999999.999999, 1e7, 9999999.9, 0.1 + 0.2, 100, 1e-3 + 1e-9}) {
            assertShortDecimal(d);
        }
    }

    private static void assertShortDecimal(double d) {
        FlatRowWriter.Out out = new FlatRowWriter.Out(8);
        if (FlatRowWriter.shortDecimal(out, d)) {
            String fast = new String(out.buf, 0, out.size, StandardCharsets.US_ASCII);
            if (!fast.equals(Double.toString(d))) {
                assertThat(fast).as("%s", d).isEqualTo(Double.toString(d));
            }
        }
    }

    @Test
    void structRowsAreWrittenAsJacksonWritesThemAndReadBackOnTheFastPath() {
        String[] strings = {"a", "é", "quote\"", "nl\n"};
        Random random = new Random(3);
        for (int n = 0; n < 2_000; n++) {
            long start = random.nextLong() / 1000;
            Object[] row = {random.nextInt(5) == 0 ? null : new Object[] {start, random.nextBoolean() ? null : start + 600_000_000L},
                strings[random.nextInt(strings.length)], random.nextInt(100_000) / 100.0,
                random.nextBoolean() ? null : new Object[] {random.nextInt(), new Object[] {strings[random.nextInt(strings.length)]}}};
            byte[] json = NESTED.write(row);
            assertThat(written(() -> json)).isEqualTo(written(() -> NESTED.writeWithJackson(row)));
            same(NESTED, json);
        }
        Object[] row = {new Object[] {1_767_261_600_000_000L, 1_767_262_200_000_000L}, "a", 8.0, null};
        byte[] json = NESTED.write(row);
        assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo(
                "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",\"end\":\"2026-01-01T10:10:00Z\"},\"user\":\"a\",\"t\":8.0,\"deep\":null}");
        Object[] read = FlatRowReader.of(NESTED.schema(), TimeTexts.of(java.time.ZoneOffset.UTC)).parse(json, 0, json.length);
        assertThat((Object[]) read[0]).containsExactly((Object[]) row[0]);
        assertThat(read[1]).isEqualTo("a");
    }

    @Test
    void writtenRowsReadBackOnTheFastPath() {
        Object[] row = {1, "user_0001", 1.23, 1_767_225_600_123_456L};
        byte[] json = SEED.write(row);
        assertThat(FlatRowReader.of(SEED.schema(), TimeTexts.of(java.time.ZoneOffset.UTC)).parse(json, 0, json.length)).containsExactly(row);
    }
}
