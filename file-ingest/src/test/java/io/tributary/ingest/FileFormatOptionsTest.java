package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
