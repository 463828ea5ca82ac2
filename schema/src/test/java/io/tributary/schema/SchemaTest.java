package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaTest {

    @Test
    void seedSchemaParsesToFourNullableColumns() {
        Schema s = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        assertThat(s.fields()).containsExactly(
                new Field("id", DataType.INT, true),
                new Field("user", DataType.STRING, true),
                new Field("amt", DataType.DOUBLE, true),
                new Field("ts", DataType.TIMESTAMP, true));
        assertThat(s.toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "TINYINT|TINYINT", "BYTE|TINYINT",
            "SMALLINT|SMALLINT", "SHORT|SMALLINT",
            "INT|INT", "INTEGER|INT",
            "BIGINT|BIGINT", "LONG|BIGINT",
            "FLOAT|FLOAT", "REAL|FLOAT",
            "DOUBLE|DOUBLE",
            "DECIMAL|DECIMAL(10,0)", "DEC|DECIMAL(10,0)", "NUMERIC|DECIMAL(10,0)",
            "DECIMAL(12)|DECIMAL(12,0)", "DECIMAL(10,2)|DECIMAL(10,2)", "DEC(5, 3)|DECIMAL(5,3)",
            "NUMERIC(38,38)|DECIMAL(38,38)", "decimal( 7 , 1 )|DECIMAL(7,1)",
            "STRING|STRING", "VARCHAR(20)|STRING", "CHAR(3)|STRING", "varchar (5)|STRING",
            "BOOLEAN|BOOLEAN",
            "DATE|DATE",
            "TIMESTAMP|TIMESTAMP", "TIMESTAMP_LTZ|TIMESTAMP", "TIMESTAMP_NTZ|TIMESTAMP_NTZ",
            "BINARY|BINARY",
            "STRUCT<a: INT, b: STRING>|STRUCT<a: INT, b: STRING>",
    })
    void everySparkDdlTypeIsAccepted(String type, String ddl) {
        Schema s = Schema.parse("c " + type);
        assertThat(s.field(0).type().ddl()).isEqualTo(ddl);
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
    }

    @Test
    void typesAndKeywordsAreCaseInsensitive() {
        Schema s = Schema.parse("Id int, TS timestamp not null, w struct<A: bigint>, d Decimal(4,1) Not Null");
        assertThat(s.fields()).containsExactly(
                new Field("Id", DataType.INT, true),
                new Field("TS", DataType.TIMESTAMP, false),
                new Field("w", DataType.struct(new Schema(List.of(new Field("A", DataType.LONG, true)))), true),
                new Field("d", DataType.decimal(4, 1), false));
    }

    @Test
    void columnNamesMatchCaseInsensitivelyButKeepTheirSpelling() {
        Schema s = Schema.parse("userId STRING, Amt DOUBLE");
        assertThat(s.indexOf("USERID")).isZero();
        assertThat(s.indexOf("amt")).isEqualTo(1);
        assertThat(s.indexOf("nope")).isEqualTo(-1);
        assertThat(s.field(0).name()).isEqualTo("userId");
        assertThat(s.fieldIndex("userId")).as("a JSON field's column: its exact name").isZero();
        assertThat(s.fieldIndex("USERID")).isEqualTo(-1);
        assertThat(s.fieldIndex("amt")).isEqualTo(-1);
    }

    @Test
    void backtickedNamesMayHoldSpacesCommasAndBackticks() {
        Schema s = Schema.parse("`first name` STRING, `a,b` INT, `x``y` LONG, `select` DATE");
        assertThat(s.fields()).extracting(Field::name).containsExactly("first name", "a,b", "x`y", "select");
        assertThat(s.toDdl()).isEqualTo("`first name` STRING, `a,b` INT, `x``y` BIGINT, select DATE");
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
    }

    @Test
    void notNullMakesTheColumnRequired() {
        Schema s = Schema.parse("id INT NOT NULL, name STRING");
        assertThat(s.field(0).nullable()).isFalse();
        assertThat(s.field(1).nullable()).isTrue();
        assertThat(s.toDdl()).isEqualTo("id INT NOT NULL, name STRING");
    }

    @Test
    void commentsAreAcceptedAndDropped() {
        Schema s = Schema.parse("id INT NOT NULL COMMENT 'the key, unique', "
                + "name STRING COMMENT 'it\\'s (a) <name>', note STRING COMMENT \"double, quoted\"");
        assertThat(s.fields()).containsExactly(
                new Field("id", DataType.INT, false),
                new Field("name", DataType.STRING, true),
                new Field("note", DataType.STRING, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a: INT, b:STRING", "a INT, b STRING", "a :INT,b : STRING", "  a   INT ,\n b\tSTRING  "})
    void colonAndWhitespaceAreOptional(String ddl) {
        assertThat(Schema.parse(ddl).toDdl()).isEqualTo("a INT, b STRING");
    }

    @Test
    void windowStructWithStartAndEndParses() {
        Schema s = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        Schema window = s.field(0).type().struct();
        assertThat(s.field(0).type().kind()).isEqualTo(DataType.Kind.STRUCT);
        assertThat(window.fields()).containsExactly(
                new Field("start", DataType.TIMESTAMP, true), new Field("end", DataType.TIMESTAMP, true));
        assertThat(s.toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        assertThat(Schema.parse("window struct<start:timestamp,end:timestamp>")).isEqualTo(
                Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>"));
    }

    @Test
    void nestedStructsWithOddNamesAndNotNullRoundTrip() {
        String ddl = "outer STRUCT<`a b`: INT NOT NULL, inner: STRUCT<x: DECIMAL(5,2), `y,z`: STRING>, c: BIGINT> NOT NULL, d DATE";
        Schema s = Schema.parse(ddl);
        assertThat(s.toDdl()).isEqualTo(ddl);
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
        Schema outer = s.field(0).type().struct();
        assertThat(outer.field(0)).isEqualTo(new Field("a b", DataType.INT, false));
        assertThat(outer.field(1).type().struct().field(1).name()).isEqualTo("y,z");
        assertThat(s.field(0).nullable()).isFalse();
    }

    @Test
    void structTypeDdlIsBuiltFromItsFields() {
        DataType t = DataType.struct(new Schema(List.of(
                new Field("my field", DataType.LONG, false),
                new Field("n", DataType.struct(new Schema(List.of(new Field("k", DataType.SHORT, true)))), true))));
        assertThat(t.ddl()).isEqualTo("STRUCT<`my field`: BIGINT NOT NULL, n: STRUCT<k: SMALLINT>>");
        assertThat(Schema.parse("s " + t.ddl()).field(0).type()).isEqualTo(t);
    }

    @Test
    void everyTypeRoundTripsThroughToDdl() {
        Schema s = Schema.parse("a TINYINT, b SMALLINT, c INT, d BIGINT, e FLOAT, f DOUBLE, g DECIMAL(20,4), h STRING, "
                + "i BOOLEAN, j DATE, k TIMESTAMP, l TIMESTAMP_NTZ, m BINARY NOT NULL, n STRUCT<p: INT, q: STRUCT<r: STRING>>");
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
        assertThat(Schema.parse(s.toString())).isEqualTo(s);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\n"})
    void emptySchemaIsRefusedWithAnExample(String ddl) {
        assertThatThrownBy(() -> Schema.parse(ddl))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("empty")
                .hasMessageContaining("id INT");
        assertThatThrownBy(() -> Schema.parse(null)).hasMessageContaining("empty");
    }

    @Test
    void unknownTypeNamesTheColumnAndListsValidTypes() {
        assertThatThrownBy(() -> Schema.parse("id INT, amount MONEY"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("'amount'")
                .hasMessageContaining("MONEY")
                .hasMessageContaining("INT")
                .hasMessageContaining("DECIMAL(p,s)")
                .hasMessageContaining("TIMESTAMP_NTZ")
                .hasMessageContaining("STRUCT<");
    }

    @Test
    void arraysMapsAndTheirNestingParseAsSparkWritesThem() {
        Schema s = Schema.parse("tags array<string>, attrs MAP<STRING, INT>, "
                + "items ARRAY<STRUCT<sku: STRING, qty: INT, opts: MAP<STRING, ARRAY<DOUBLE>>>>, m map<string,struct<a:int>>");
        assertThat(s.field(0).type()).isEqualTo(DataType.array(DataType.STRING));
        assertThat(s.field(1).type()).isEqualTo(DataType.map(DataType.INT));
        assertThat(s.field(2).type().element().struct().field(2).type())
                .isEqualTo(DataType.map(DataType.array(DataType.DOUBLE)));
        assertThat(s.toDdl()).isEqualTo("tags ARRAY<STRING>, attrs MAP<STRING, INT>, "
                + "items ARRAY<STRUCT<sku: STRING, qty: INT, opts: MAP<STRING, ARRAY<DOUBLE>>>>, m MAP<STRING, STRUCT<a: INT>>");
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
    }

    @Test
    void mapsOfPrimitiveKeysParseWithTheirKeyType() {
        Schema s = Schema.parse("ik MAP<INT, STRING>, dk map<date, array<bigint>>, xk MAP<DECIMAL(5,2), MAP<BOOLEAN, INT>>");
        assertThat(s.field(0).type()).isEqualTo(DataType.map(DataType.INT, DataType.STRING));
        assertThat(s.field(1).type().keyType()).isEqualTo(DataType.DATE);
        assertThat(s.toDdl()).isEqualTo("ik MAP<INT, STRING>, dk MAP<DATE, ARRAY<BIGINT>>, xk MAP<DECIMAL(5,2), MAP<BOOLEAN, INT>>");
        assertThat(Schema.parse(s.toDdl())).isEqualTo(s);
        assertThat(Schema.parse("m MAP<STRING, INT>").field(0).type()).isEqualTo(DataType.map(DataType.INT));
    }

    @Test
    void aVariantColumnSaysToReadItsJsonAsText() {
        assertThatThrownBy(() -> Schema.parse("id INT, payload VARIANT"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("schema: column 'payload' has type VARIANT, which Tributary does not support yet; read it as STRING, which holds"
                        + " the value's JSON text, and take its parts in the transform: variant_get(parse_json(payload), '$.a', 'int')");
    }

    @Test
    void aJsonSourcesSchemaTakesVariantAtAnyDepthAndWritesItBack() {
        Schema s = Schema.parseWithVariant("id INT, payload variant, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, m MAP<STRING, VARIANT>");
        assertThat(s.field(1).type()).isEqualTo(DataType.VARIANT);
        assertThat(s.field(2).type().struct().field(0).type()).isEqualTo(DataType.VARIANT);
        assertThat(s.field(3).type()).isEqualTo(DataType.array(DataType.VARIANT));
        assertThat(s.field(4).type()).isEqualTo(DataType.map(DataType.VARIANT));
        assertThat(s.toDdl()).isEqualTo("id INT, payload VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, m MAP<STRING, VARIANT>");
        assertThat(Schema.parseWithVariant(s.toDdl())).isEqualTo(s);
        assertThatThrownBy(() -> Schema.parseWithVariant("v VARIANTS")).hasMessageContaining("has type VARIANTS, which Tributary does not support");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "attrs MAP<ARRAY<INT>, STRING>|keys here are of a primitive type",
        "attrs MAP<STRING>|MAP<STRING, INT>",
        "tags ARRAY<>|ARRAY<STRING>",
        "tags ARRAY<MONEY>|'tags[]'"})
    void badArraysAndMapsSayWhatIsWrong(String ddl, String message) {
        assertThatThrownBy(() -> Schema.parse("id INT, " + ddl))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("'" + ddl.substring(0, ddl.indexOf(' ')))
                .hasMessageContaining(message);
    }

    @Test
    void duplicateColumnsAreRefusedCaseInsensitively() {
        assertThatThrownBy(() -> Schema.parse("id INT, user STRING, ID BIGINT"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("'ID'")
                .hasMessageContaining("twice")
                .hasMessageContaining("case-insensitive")
                .hasMessageContaining("rename");
    }

    @Test
    void duplicateFieldsInAStructNameTheStruct() {
        assertThatThrownBy(() -> Schema.parse("w STRUCT<a: INT, A: INT>"))
                .hasMessageContaining("'A'")
                .hasMessageContaining("twice")
                .hasMessageContaining("struct 'w'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"DECIMAL(0,0)", "DECIMAL(39,2)", "DECIMAL(5,6)", "DECIMAL(99999999999,2)", "NUMERIC(10,1000000000000)"})
    void badDecimalPrecisionSaysTheLimits(String type) {
        assertThatThrownBy(() -> Schema.parse("price " + type))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("'price'")
                .hasMessageContaining(type)
                .hasMessageContaining("1 <= precision <= 38")
                .hasMessageContaining("DECIMAL(10,2)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"id", "!!!", "id INT,", "id INT, , user STRING", "(id INT)", "id-x INT"})
    void garbageIsRefusedWithTheExpectedShape(String ddl) {
        assertThatThrownBy(() -> Schema.parse(ddl))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("name TYPE")
                .hasMessageContaining("amt DOUBLE");
    }

    @Test
    void typoInATypeIsAnUnknownTypeNamingTheColumn() {
        assertThatThrownBy(() -> Schema.parse("id INT NOT NUL"))
                .hasMessageContaining("'id'")
                .hasMessageContaining("unknown type 'INT NOT NUL'");
    }

    @Test
    void errorsInsideAStructNameTheNestedColumn() {
        assertThatThrownBy(() -> Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTMP>"))
                .hasMessageContaining("'window.end'")
                .hasMessageContaining("TIMESTMP");
        assertThatThrownBy(() -> Schema.parse("window STRUCT<>"))
                .hasMessageContaining("'window'")
                .hasMessageContaining("empty STRUCT");
    }

    @Test
    void requireNamesTheCallerAndTheSchema() {
        Schema s = Schema.parse("id INT, ts TIMESTAMP");
        assertThat(s.require("TS", "watermark")).isEqualTo(1);
        assertThatThrownBy(() -> s.require("event_time", "watermark"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("watermark")
                .hasMessageContaining("'event_time'")
                .hasMessageContaining("id INT, ts TIMESTAMP");
    }

    @Test
    void schemasWithTheSameColumnsAreEqual() {
        assertThat(Schema.parse("a INT, b STRING")).isEqualTo(Schema.parse("a INTEGER, b VARCHAR(3)"))
                .hasSameHashCodeAs(Schema.parse("a INTEGER, b VARCHAR(3)"));
        assertThat(Schema.parse("a INT")).isNotEqualTo(Schema.parse("a INT NOT NULL"));
        assertThat(Schema.parse("a INT")).isNotEqualTo(Schema.parse("A INT"));
    }

    @Test
    void aColumnDefinitionItCannotReadIsNamedWithTheStructItIsIn() {
        assertThatThrownBy(() -> Schema.parse("id INT, amount"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("schema: cannot read column definition 'amount'; write it as \"name TYPE\", e.g. \"amt DOUBLE\""
                        + " (names with spaces go in backticks)");
        assertThatThrownBy(() -> Schema.parse("id INT, s STRUCT<a: INT, t: STRUCT<b>>"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("schema: cannot read column definition 'b' in struct 's.t'; write it as \"name TYPE\", e.g. \"amt DOUBLE\""
                        + " (names with spaces go in backticks)");
    }

    @Test
    void aStructOfRepeatedNamesIsParsedOnlyWhenAskedAndFindsTheFirstByNameAndTheLastByExactName() {
        assertThatThrownBy(() -> Schema.parse("a INT, b STRING, a STRING")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("column 'a' appears twice");
        Schema s = Schema.parseWithRepeatedNames("a INT, b STRING, a STRING", false);
        assertThat(s.toDdl()).isEqualTo("a INT, b STRING, a STRING");
        assertThat(s.repeatsAName()).isTrue();
        assertThat(s.count("A")).isEqualTo(2);
        assertThat(s.indexOf("a")).isZero();
        assertThat(s.fieldIndex("a")).isEqualTo(2);
        assertThat(Schema.parseWithRepeatedNames("a INT, b STRING", false).repeatsAName()).isFalse();
    }
}
