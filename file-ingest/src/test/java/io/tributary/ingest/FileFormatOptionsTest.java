package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An option a format does not take is refused with the options it does take, or with word that it takes none. */
class FileFormatOptionsTest {
    @Test
    void anUnknownOptionListsTheFormatsOptions() {
        assertThatThrownBy(() -> FileFormat.of("text", Map.of("sep", ",")))
                .isInstanceOf(TributaryException.class)
                .hasMessage("source.files.options.sep: not an option of the text format that Tributary reads;"
                        + " the options are [wholetext] (docs/formats.md)");
    }

    @Test
    void anOptionOfAFormatThatTakesNoneSaysSo() {
        assertThatThrownBy(() -> FileFormat.of("parquet", Map.of("header", "true")))
                .isInstanceOf(TributaryException.class)
                .hasMessage("source.files.options.header: not an option of the parquet format that Tributary reads"
                        + " (it takes none) (docs/formats.md)");
    }

    @Test
    void aJsonMapOfKeysOtherThanTextNeedsTypedMapKeysAsSparksJsonReaderRefusesIt() {
        Schema schema = Schema.parse("id INT, s STRUCT<m: ARRAY<MAP<INT, STRING>>>");
        assertThatThrownBy(() -> FileFormat.of("json", Map.of()).checkSchema(schema))
                .isInstanceOf(TributaryException.class)
                .hasMessage("source.files.schema: column 's' is STRUCT<m: ARRAY<MAP<INT, STRING>>>: Spark's JSON reader reads maps of"
                        + " STRING keys only (INVALID_JSON_SCHEMA_MAP_TYPE); set source.files.options.typedMapKeys: true to read the keys"
                        + " by Spark's CAST of their text, or make the keys STRING");
        assertThatCode(() -> FileFormat.of("json", Map.of("typedMapKeys", "true")).checkSchema(schema)).doesNotThrowAnyException();
        assertThatCode(() -> FileFormat.of("json", Map.of()).checkSchema(Schema.parse("m MAP<STRING, INT>"))).doesNotThrowAnyException();
        assertThatCode(() -> FileFormat.of("parquet", Map.of()).checkSchema(schema)).doesNotThrowAnyException();
    }

    @Test
    void everyFormatButTextReadsAVariantField() {
        Schema schema = Schema.parseWithVariant("id INT, v VARIANT, s STRUCT<w: ARRAY<VARIANT>>");
        assertThatCode(() -> FileFormat.of("json", Map.of()).checkSchema(schema)).doesNotThrowAnyException();
        assertThatCode(() -> FileFormat.of("csv", Map.of()).checkSchema(Schema.parseWithVariant("id INT, v VARIANT")))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> FileFormat.of("csv", Map.of()).checkSchema(Schema.parseWithVariant("id INT, a ARRAY<VARIANT>")))
                .hasMessageContaining("column 'a' is ARRAY<VARIANT>, which a CSV file cannot hold");
        assertThatCode(() -> FileFormat.of("parquet", Map.of()).checkSchema(schema)).doesNotThrowAnyException();
        assertThatThrownBy(() -> FileFormat.of("text", Map.of()).checkSchema(Schema.parseWithVariant("value VARIANT")))
                .isInstanceOf(TributaryException.class)
                .hasMessage("source.files.schema: column 'value' is VARIANT, and format text reads no VARIANT; read it as STRING,"
                        + " or use format json, csv or parquet, which read a VARIANT as Spark's readers do");
        assertThatCode(() -> FileFormat.of("debezium-json", Map.of()).checkSchema(schema)).doesNotThrowAnyException();
    }

    @Test
    void sparksSingleVariantColumnNamesAColumnOfJsonOrCsv() {
        assertThat(FileFormat.of("json", Map.of("SingleVariantColumn", "v")).singleVariantColumn()).isEqualTo("v");
        assertThat(FileFormat.of("csv", Map.of("singleVariantColumn", "rec")).singleVariantColumn()).isEqualTo("rec");
        assertThatThrownBy(() -> FileFormat.of("json", Map.of("singleVariantColumn", " ")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.options.singleVariantColumn: names no column");
        assertThatThrownBy(() -> FileFormat.of("parquet", Map.of("singleVariantColumn", "v")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.options.singleVariantColumn: ");
    }
}
