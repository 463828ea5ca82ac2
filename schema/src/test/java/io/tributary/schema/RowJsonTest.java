package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RowJsonTest {
    private static final RowJson SEED = new RowJson(Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP"));

    private static long micros(String instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(instant));
    }

    private static Object one(String type, String jsonValue) {
        return new RowJson(Schema.parse("v " + type)).parse("{\"v\":" + jsonValue + "}")[0];
    }

    private static BadRecordException bad(RowJson json, String line) {
        BadRecordException e = catchThrowableOfType(BadRecordException.class, () -> json.parse(line));
        assertThat(e).as("a bad record for %s", line).isNotNull();
        return e;
    }

    private static BadRecordException bad(String type, String jsonValue) {
        return bad(new RowJson(Schema.parse("v " + type)), "{\"v\":" + jsonValue + "}");
    }

    @Test
    void seedRowsParse() {
        assertThat(SEED.parse("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}"))
                .containsExactly(1, "a", 5.0, micros("2026-01-01T10:01:00Z"));
        assertThat(SEED.parse("{\"id\":2,\"user\":\"b\",\"amt\":7.5,\"ts\":\"2026-01-01T10:14:00Z\"}"))
                .containsExactly(2, "b", 7.5, micros("2026-01-01T10:14:00Z"));
    }

    @Test
    void bytesAreReadFromTheGivenSliceOnly() {
        byte[] buf = "xx{\"id\":3,\"user\":\"c\"}yy".getBytes(StandardCharsets.UTF_8);
        assertThat(SEED.parse(buf, 2, buf.length - 4)).containsExactly(3, "c", null, null);
        assertThat(SEED.parse("{\"user\":\"é\"}".getBytes(StandardCharsets.UTF_8))).containsExactly(null, "é", null, null);
    }

    @Test
    void missingAndExplicitNullFieldsAreNull() {
        assertThat(SEED.parse("{\"id\":1}")).containsExactly(1, null, null, null);
        assertThat(SEED.parse("{\"id\":null,\"user\":null,\"amt\":null,\"ts\":null}")).containsExactly(null, null, null, null);
        assertThat(SEED.parse("{}")).containsExactly(null, null, null, null);
    }

    @Test
    void unknownFieldsAreIgnoredWhateverTheirShape() {
        assertThat(SEED.parse("{\"extra\":{\"id\":9,\"deep\":[1,{\"a\":2}]},\"id\":1,\"more\":[\"x\"],\"n\":null,\"user\":\"a\"}"))
                .containsExactly(1, "a", null, null);
    }

    @Test
    void singleQuotesAreAcceptedAsSparkDoesByDefault() {
        assertThat(SEED.parse("{'id':5,'user':'e'}")).containsExactly(5, "e", null, null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "TINYINT|128|TINYINT", "TINYINT|-129|TINYINT", "SMALLINT|32768|SMALLINT",
            "INT|2147483648|INT", "INT|-2147483649|INT", "BIGINT|9223372036854775808|BIGINT",
            "BIGINT|123456789012345678901234567890|BIGINT"})
    void integerOverflowIsABadRecordNamingTheField(String type, String value, String ddl) {
        BadRecordException e = bad(type, value);
        assertThat(e.field()).isEqualTo("v");
        assertThat(e.reason()).contains(value).contains("does not fit in " + ddl);
        assertThat(e.getMessage()).startsWith("field 'v': ");
    }

    @Test
    void integerBoundsAreAccepted() {
        assertThat(one("TINYINT", "-128")).isEqualTo((byte) -128);
        assertThat(one("SMALLINT", "32767")).isEqualTo((short) 32767);
        assertThat(one("INT", "2147483647")).isEqualTo(Integer.MAX_VALUE);
        assertThat(one("BIGINT", "-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void stringForIntIsABadRecord() {
        BadRecordException e = bad(SEED, "{\"id\":\"5\",\"user\":\"a\"}");
        assertThat(e.field()).isEqualTo("id");
        assertThat(e.reason()).contains("expected INT").contains("a string").contains("5");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"INT|1.5", "INT|true", "INT|[1]", "INT|{\"a\":1}", "BIGINT|1e3",
            "BOOLEAN|\"true\"", "BOOLEAN|1", "DOUBLE|\"5.0\"", "DOUBLE|\"nan\"", "DOUBLE|true",
            "DATE|20260101", "TIMESTAMP|1.5", "TIMESTAMP|true", "BINARY|5", "STRUCT<a: INT>|[1]", "STRUCT<a: INT>|\"x\"",
            "DECIMAL(5,2)|true"})
    void wrongJsonTypeIsABadRecordNamingFieldAndType(String type, String value) {
        BadRecordException e = bad(type, value);
        assertThat(e.field()).isEqualTo("v");
        assertThat(e.reason()).contains("expected " + Schema.parse("v " + type).field(0).type().ddl());
    }

    @Test
    void integerForDoubleAndFloatIsAccepted() {
        assertThat(SEED.parse("{\"amt\":5}")[2]).isEqualTo(5.0);
        assertThat(one("FLOAT", "5")).isEqualTo(5.0f);
        assertThat(one("REAL", "0.1")).isEqualTo(0.1f);
        assertThat(one("DOUBLE", "-1.25e2")).isEqualTo(-125.0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"\"NaN\"|NaN", "\"Infinity\"|Infinity", "\"+Infinity\"|Infinity",
            "\"-Infinity\"|-Infinity", "\"+INF\"|Infinity", "\"-INF\"|-Infinity", "NaN|NaN", "Infinity|Infinity",
            "-Infinity|-Infinity"})
    void nanAndInfinityAreAcceptedForFloatingTypes(String json, String expected) {
        double d = Double.parseDouble(expected);
        assertThat(one("DOUBLE", json)).isEqualTo(d);
        assertThat(one("FLOAT", json)).isEqualTo((float) d);
    }

    @Test
    void unquotedNanIsABadRecordForNonFloatingTypes() {
        assertThat(bad("INT", "NaN").field()).isEqualTo("v");
        assertThat(bad("DECIMAL(5,2)", "NaN").field()).isEqualTo("v");
        assertThat(one("STRING", "NaN")).isEqualTo("NaN");
    }

    @Test
    void nonStringValuesForStringGiveTheirJsonTextAsWritten() {
        assertThat(one("STRING", "5.0")).isEqualTo("5.0");
        assertThat(one("STRING", "12")).isEqualTo("12");
        assertThat(one("STRING", "1e10")).isEqualTo("1e10");
        assertThat(one("STRING", "true")).isEqualTo("true");
        assertThat(one("STRING", "{\"a\": 1, \"b\": [1, \"x\", null]}")).isEqualTo("{\"a\": 1, \"b\": [1, \"x\", null]}");
        assertThat(one("STRING", "[1, 2]")).isEqualTo("[1, 2]");
        assertThat(one("STRING", "\"\"")).isEqualTo("");
    }

    @Test
    void rawJsonInAStringColumnDoesNotSwallowTheFollowingFields() {
        RowJson json = new RowJson(Schema.parse("payload STRING, id INT"));
        assertThat(json.parse("{\"payload\":{\"id\":99,\"x\":[{}]},\"id\":1}")).containsExactly("{\"id\":99,\"x\":[{}]}", 1);
    }

    @Test
    void timestampsAreReadFromStringsOrIntegerSeconds() {
        long ten = micros("2026-01-01T10:00:00Z");
        assertThat(one("TIMESTAMP", "1767261600")).isEqualTo(ten);
        assertThat(one("TIMESTAMP", "\"2026-01-01 10:00:00\"")).isEqualTo(ten);
        assertThat(one("TIMESTAMP", "\"2026-01-01T11:00:00+01:00\"")).isEqualTo(ten);
        assertThat(one("TIMESTAMP", "-1")).isEqualTo(-1_000_000L);
        assertThat(one("TIMESTAMP_NTZ", "\"2026-01-01T10:00:00\"")).isEqualTo(ten);
    }

    @Test
    void unreadableTimestampSaysTheExpectedForm() {
        BadRecordException e = bad(SEED, "{\"id\":1,\"ts\":\"yesterday\"}");
        assertThat(e.field()).isEqualTo("ts");
        assertThat(e.reason()).contains("'yesterday'").contains("2026-01-01T10:00:00Z");
        assertThat(bad("TIMESTAMP", "99999999999999999").reason()).contains("out of range");
        assertThat(bad("TIMESTAMP", "99999999999999999999999").reason()).contains("out of range");
        assertThat(bad("TIMESTAMP_NTZ", "\"2026-01-01T10:00:00Z\"").field()).isEqualTo("v");
    }

    @Test
    void datesAreReadFromStrings() {
        assertThat(one("DATE", "\"2026-01-02\"")).isEqualTo((int) LocalDate.of(2026, 1, 2).toEpochDay());
        assertThat(one("DATE", "\"2026-1-2T10:00:00\"")).isEqualTo((int) LocalDate.of(2026, 1, 2).toEpochDay());
        assertThat(bad("DATE", "\"2026-02-30\"").reason()).contains("'2026-02-30'").contains("yyyy-MM-dd");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"id\":1,\"user\":\"a\"|end of line", "{\"id\":1,|end of line", "{\"id\":1,\"user\":\"a|end of line",
            "{\"id\":1} x|malformed JSON", "{\"id\":1}{\"id\":2}|after the JSON object", "{\"id\":1},|malformed JSON",
            "[{\"id\":1}]|expected a JSON object, found an array", "\"hello\"|expected a JSON object, found a string",
            "42|expected a JSON object, found an integer", "''|expected a JSON object, found end of input",
            "{id:1}|malformed JSON", "{\"id\":01}|malformed JSON", "{\"id\":1 /* c */}|malformed JSON",
            "not json|malformed JSON"})
    void malformedLinesAreBadRecordsForTheWholeLine(String line, String reason) {
        BadRecordException e = bad(SEED, line);
        assertThat(e.field()).isNull();
        assertThat(e.reason()).contains(reason);
        assertThat(e.getMessage()).isEqualTo(e.reason());
    }

    @Test
    void notNullColumnMustBePresentAndNotNull() {
        RowJson json = new RowJson(Schema.parse("id INT NOT NULL, user STRING"));
        assertThat(json.parse("{\"id\":1}")).containsExactly(1, null);
        for (String line : new String[] {"{\"user\":\"a\"}", "{\"id\":null,\"user\":\"a\"}"}) {
            BadRecordException e = bad(json, line);
            assertThat(e.field()).isEqualTo("id");
            assertThat(e.reason()).contains("NOT NULL");
        }
    }

    @Test
    void decimalsAreRoundedHalfUpToTheScaleAndMustFitThePrecision() {
        assertThat(one("DECIMAL(5,2)", "12.345")).isEqualTo(new BigDecimal("12.35"));
        assertThat(one("DECIMAL(5,2)", "12")).isEqualTo(new BigDecimal("12.00"));
        assertThat(one("DECIMAL(5,2)", "-999.994")).isEqualTo(new BigDecimal("-999.99"));
        assertThat(one("DECIMAL(5,2)", "\" 1.5 \"")).isEqualTo(new BigDecimal("1.50"));
        assertThat(one("DECIMAL(5,2)", "1e2")).isEqualTo(new BigDecimal("100.00"));
        assertThat(one("DECIMAL(3,3)", "0.0004")).isEqualTo(new BigDecimal("0.000"));
        assertThat(one("DECIMAL", "12345")).isEqualTo(new BigDecimal("12345"));
        BadRecordException tooBig = bad("DECIMAL(5,2)", "1234.5");
        assertThat(tooBig.field()).isEqualTo("v");
        assertThat(tooBig.reason()).contains("1234.5").contains("does not fit in DECIMAL(5,2)");
        assertThat(bad("DECIMAL(5,2)", "999.995").reason()).contains("does not fit");
        assertThat(bad("DECIMAL(5,2)", "\"abc\"").reason()).contains("'abc' is not a decimal number");
    }

    @Test
    void binaryIsBase64() {
        assertThat((byte[]) one("BINARY", "\"AQID\"")).containsExactly(1, 2, 3);
        assertThat(bad("BINARY", "\"!!\"").reason()).contains("base64");
    }

    @Test
    void nestedStructParsesAndWrites() {
        RowJson json = new RowJson(Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE"));
        String line = "{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",\"end\":\"2026-01-01T10:10:00Z\"},\"user\":\"a\",\"t\":5.0}";
        Object[] row = json.parse(line);
        assertThat((Object[]) row[0]).containsExactly(micros("2026-01-01T10:00:00Z"), micros("2026-01-01T10:10:00Z"));
        assertThat(row[1]).isEqualTo("a");
        assertThat(new String(json.write(row), StandardCharsets.UTF_8)).isEqualTo(line);
        assertThat(json.parse("{\"window\":{\"end\":\"2026-01-01T10:10:00Z\",\"x\":1}}")[0])
                .isEqualTo(new Object[] {null, micros("2026-01-01T10:10:00Z")});
    }

    @Test
    void fieldNamesMatchColumnsExactlyAsSparksJsonReaderDoes() {
        // Spark 4.2 reads {"id":7,"USER":"G"} with "id INT, user STRING" as (7, null): a field fills the column of
        // exactly its name, whatever spark.sql.caseSensitive says; with both spellings, "user" is the column
        RowJson json = new RowJson(Schema.parse("id INT, user STRING"));
        assertThat(json.parse("{\"id\":7,\"USER\":\"G\"}")).containsExactly(7, null);
        assertThat(json.parse("{\"USER\":\"G\",\"user\":\"g\"}")).containsExactly(null, "g");
        assertThat(json.parse("{\"user\":\"g\",\"USER\":\"G\",\"Id\":1}")).containsExactly(null, "g");
        assertThat(json.parse("{'USER':'G','user':'g','ID':2}")).as("Jackson's path (single quotes)").containsExactly(null, "g");
        RowJson nested = new RowJson(Schema.parse("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>"));
        assertThat(nested.parse("{\"w\":{\"END\":\"2026-01-01T10:10:00Z\",\"start\":\"2026-01-01T10:00:00Z\"}}")[0])
                .isEqualTo(new Object[] {micros("2026-01-01T10:00:00Z"), null});
        assertThat(nested.parse("{\"W\":{\"start\":\"2026-01-01T10:00:00Z\"}}")).containsExactly((Object) null);
    }

    @Test
    void badValueInsideAStructNamesTheNestedField() {
        RowJson json = new RowJson(Schema.parse("w STRUCT<start: TIMESTAMP NOT NULL, n: INT>"));
        BadRecordException e = bad(json, "{\"w\":{\"start\":\"2026-01-01T10:00:00Z\",\"n\":\"x\"}}");
        assertThat(e.field()).isEqualTo("w.n");
        assertThat(e.getMessage()).startsWith("field 'w.n': expected INT");
        assertThat(bad(json, "{\"w\":{\"n\":1}}").field()).isEqualTo("w.start");
    }

    @Test
    void seedRowIsWrittenInCanonicalForm() {
        Object[] row = {1, "a", 5.0, micros("2026-01-01T10:01:00Z")};
        assertThat(new String(SEED.write(row), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}");
        assertThat(new String(SEED.write(new Object[4]), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":null,\"user\":null,\"amt\":null,\"ts\":null}");
    }

    @Test
    void decimalsAreWrittenPlainNeverInScientificNotation() {
        RowJson json = new RowJson(Schema.parse("d DECIMAL(38,10)"));
        assertThat(new String(json.write(new Object[] {new BigDecimal("0.0000000100")}), StandardCharsets.UTF_8))
                .isEqualTo("{\"d\":0.0000000100}");
    }

    @Test
    void everyTypeRoundTripsThroughWriteAndParse() {
        RowJson json = new RowJson(Schema.parse("a TINYINT, b SMALLINT, c INT, d BIGINT, e FLOAT, f DOUBLE, "
                + "g DECIMAL(10,2), h STRING, i BOOLEAN, j DATE, k TIMESTAMP, l TIMESTAMP_NTZ, m BINARY, "
                + "n STRUCT<p: INT, q: STRUCT<r: STRING, s: BINARY>>, o DECIMAL(38,38), u DECIMAL(38,0)"));
        Object[][] rows = {
            {(byte) 1, (short) 2, 3, 4L, 1.5f, 2.25, new BigDecimal("12.34"), "hé \"quoted\"\n\\", true, 20_454,
                1_767_261_600_123_456L, 1_767_261_600_000_001L, new byte[] {0, -1, 2},
                new Object[] {7, new Object[] {"x", new byte[] {9}}},
                new BigDecimal("0.00000000000000000000000000000000000001"),
                new BigDecimal("99999999999999999999999999999999999999")},
            {Byte.MIN_VALUE, Short.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Float.MAX_VALUE, Double.MIN_VALUE,
                new BigDecimal("-99999999.99"), "", false, -719_162, -1L, -62_135_596_800_000_000L, new byte[0],
                new Object[] {null, new Object[] {null, null}}, new BigDecimal("0E-38"), new BigDecimal("-1")},
            {null, null, null, null, Float.NaN, Double.NEGATIVE_INFINITY, null, null, null, null, null, null, null,
                null, null, null},
            {(byte) 0, (short) 0, 0, 0L, Float.MIN_VALUE, Double.POSITIVE_INFINITY, new BigDecimal("0.00"), "0", true,
                0, 0L, 0L, null, new Object[] {1, null}, null, new BigDecimal("0")},
            {null, null, null, null, 0.1f, Double.NaN, null, "{\"not\":\"an object\"}", null, 2_932_896,
                253_402_300_799_999_999L, 253_402_300_799_999_999L, null, null, null, null},
        };
        for (Object[] row : rows) {
            byte[] written = json.write(row);
            Object[] back = json.parse(written);
            assertThat(Arrays.deepEquals(back, row))
                    .as("%s read back as %s", new String(written, StandardCharsets.UTF_8), Arrays.deepToString(back))
                    .isTrue();
            assertThat(json.write(back)).isEqualTo(written);
        }
    }

    @Test
    void schemaIsTheOneGiven() {
        assertThat(SEED.schema()).isEqualTo(Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"id\":1}\n", "  {\"id\":1}  ", "{\"id\":1}\r\n"})
    void surroundingWhitespaceIsIgnored(String line) {
        assertThat(SEED.parse(line)).containsExactly(1, null, null, null);
        assertThat(SEED.parse(line.getBytes(StandardCharsets.UTF_8))).containsExactly(1, null, null, null);
    }

    @Test
    void arraysAndMapsReadAsListsAndMapsAndWriteBack() {
        RowJson json = new RowJson(Schema.parse(
                "id INT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, items ARRAY<STRUCT<sku: STRING, qty: INT>>, m MAP<STRING, ARRAY<BIGINT>>"));
        String line = "{\"id\":1,\"tags\":[\"a\",null,\"b\"],\"attrs\":{\"x\":1,\"y\":null},"
                + "\"items\":[{\"sku\":\"s1\",\"qty\":2},null,{\"qty\":3}],\"m\":{\"k\":[1,2],\"e\":[]}}";
        Object[] row = json.parse(line);
        assertThat(row[0]).isEqualTo(1);
        assertThat(row[1]).isEqualTo(Arrays.asList("a", null, "b"));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("x", 1);
        attrs.put("y", null);
        assertThat(row[2]).isEqualTo(attrs);
        assertThat((List<?>) row[3]).hasSize(3);
        assertThat((Object[]) ((List<?>) row[3]).get(0)).containsExactly("s1", 2);
        assertThat(((List<?>) row[3]).get(1)).isNull();
        assertThat((Object[]) ((List<?>) row[3]).get(2)).containsExactly(null, 3);
        assertThat(row[4]).isEqualTo(Map.of("k", List.of(1L, 2L), "e", List.of()));
        assertThat(new String(json.write(row), StandardCharsets.UTF_8)).isEqualTo(
                "{\"id\":1,\"tags\":[\"a\",null,\"b\"],\"attrs\":{\"x\":1,\"y\":null},"
                + "\"items\":[{\"sku\":\"s1\",\"qty\":2},null,{\"sku\":null,\"qty\":3}],\"m\":{\"k\":[1,2],\"e\":[]}}");
        Object[] again = json.parse(json.write(row));
        assertThat(new String(json.write(again), StandardCharsets.UTF_8)).isEqualTo(new String(json.write(row), StandardCharsets.UTF_8));
        assertThat(json.parse("{\"id\":2}")).containsExactly(2, null, null, null, null);
    }

    @Test
    void aStringColumnKeepsTheExactTextOfAnArrayOrObject() {
        assertThat(one("STRING", "[1, {\"a\": 2}]")).isEqualTo("[1, {\"a\": 2}]");
        assertThat(one("ARRAY<STRING>", "[{\"a\" : 1.50}, 2.50, true]")).isEqualTo(List.of("{\"a\" : 1.50}", "2.50", "true"));
        byte[] slice = "xx{\"raw\": {\"b\": [true, null]}, \"n\": 1}yy".getBytes(StandardCharsets.UTF_8);
        assertThat(new RowJson(Schema.parse("raw STRING, n INT")).parse(slice, 2, slice.length - 4))
                .containsExactly("{\"b\": [true, null]}", 1);
    }

    @Test
    void aMapKeyGivenTwiceKeepsTheLastValueAsSparkDoes() {
        assertThat(one("MAP<STRING, INT>", "{\"a\": 1, \"b\": 2, \"a\": 3}")).isEqualTo(Map.of("a", 3, "b", 2));
    }

    @Test
    void typedMapKeysReadAsSparksCastAndRoundTripThroughTheCanonicalJson() {
        RowJson json = new RowJson(Schema.parse("ik MAP<INT, STRING>, lk MAP<BIGINT, DOUBLE>, dk MAP<DATE, INT>, "
                + "tk MAP<TIMESTAMP, INT>, bk MAP<BOOLEAN, INT>, xk MAP<DECIMAL(5,2), ARRAY<INT>>, fk MAP<DOUBLE, INT>, gk MAP<FLOAT, INT>"));
        Object[] row = json.parse("{\"ik\": {\" 7 \": \"a\", \"-3\": \"b\", \"+2\": \"c\"}, \"lk\": {\"3000000000\": 1.5},"
                + " \"dk\": {\"2024-02-29\": 1}, \"tk\": {\"2026-01-01 10:00:00\": 2}, \"bk\": {\"yes\": 1, \"F\": 0},"
                + " \"xk\": {\"1.555\": [1], \"-0.25\": null}, \"fk\": {\"NaN\": 1, \"1e20\": 2}, \"gk\": {\"0.1\": 1, \"-Infinity\": 2}}");
        assertThat(row[0]).isEqualTo(Map.of(7, "a", -3, "b", 2, "c"));
        assertThat(row[1]).isEqualTo(Map.of(3_000_000_000L, 1.5));
        assertThat(row[2]).isEqualTo(Map.of(19782, 1));
        assertThat(row[3]).isEqualTo(Map.of(1_767_261_600_000_000L, 2));
        assertThat(row[4]).isEqualTo(Map.of(true, 1, false, 0));
        Map<Object, Object> decimals = new java.util.LinkedHashMap<>();
        decimals.put(new java.math.BigDecimal("1.56"), List.of(1));
        decimals.put(new java.math.BigDecimal("-0.25"), null);
        assertThat(row[5]).isEqualTo(decimals);
        assertThat(row[6]).isEqualTo(Map.of(Double.NaN, 1, 1e20, 2));
        assertThat(row[7]).isEqualTo(Map.of(0.1f, 1, Float.NEGATIVE_INFINITY, 2));
        byte[] canonical = json.write(row);
        assertThat(new String(canonical, StandardCharsets.UTF_8)).startsWith("{\"ik\":{\"7\":\"a\",\"-3\":\"b\",\"2\":\"c\"}")
                .contains("\"dk\":{\"2024-02-29\":1}", "\"xk\":{\"1.56\":[1],\"-0.25\":null}", "\"fk\":{\"NaN\":1,\"1.0E20\":2}");
        Object[] again = json.parse(canonical);
        assertThat(again).isEqualTo(row);
        assertThat(json.write(again)).isEqualTo(canonical);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "MAP<INT, STRING>|{\"x\": \"a\"}|key 'x' does not cast to INT",
        "MAP<INT, STRING>|{\"1.0\": \"a\"}|key '1.0' does not cast to INT",
        "MAP<INT, STRING>|{\"2147483648\": \"a\"}|key '2147483648' does not cast to INT",
        "MAP<DATE, INT>|{\"2024-02-30\": 1}|key '2024-02-30' does not cast to DATE",
        "MAP<BOOLEAN, INT>|{\"maybe\": 1}|key 'maybe' does not cast to BOOLEAN"})
    void aMapKeyThatDoesNotCastToTheKeyTypeIsABadRecordNamingTheColumnAndKey(String type, String value, String reason) {
        BadRecordException e = bad(type, value);
        assertThat(e.field()).isEqualTo("v");
        assertThat(e.getMessage()).isEqualTo("field 'v': " + reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ARRAY<INT>|[1, \"x\", 3]|v[1]|expected INT",
        "ARRAY<INT>|{\"a\": 1}|v|expected ARRAY<INT>, found an object",
        "ARRAY<INT>|7|v|expected ARRAY<INT>, found an integer",
        "MAP<STRING, INT>|[1]|v|expected MAP<STRING, INT>, found an array",
        "MAP<STRING, INT>|{\"a\": 1, \"b\": true}|v.b|expected INT",
        "ARRAY<STRUCT<q: INT>>|[{\"q\": 1}, {\"q\": \"no\"}]|v[1].q|expected INT",
        "MAP<STRING, ARRAY<INT>>|{\"k\": [1, 2.5]}|v.k[1]|expected INT"})
    void badNestedValuesNameTheirPath(String type, String value, String field, String reason) {
        BadRecordException e = bad(type, value);
        assertThat(e.field()).isEqualTo(field);
        assertThat(e.reason()).contains(reason);
    }
}
