package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizesTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "134217728|134217728",
            "16k|16384",
            "128m|134217728",
            "128 MiB|134217728",
            "128MB|134217728",
            "1g|1073741824",
            "1 TB|1099511627776",
            "7b|7",
            " 64 m |67108864"})
    void parsesBytesAndBinaryUnits(String text, long bytes) {
        assertThat(ByteSizes.parse(text)).contains(bytes);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "m", "1.5g", "-1", "128 megabytes", "10 PiB", "9999999999999999999", "9000000000000t"})
    void refusesWhatIsNotASize(String text) {
        assertThat(ByteSizes.parse(text)).isEmpty();
        assertThat(ByteSizes.parse(null)).isEmpty();
    }
}
