package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Control characters are escaped in one place; ordinary text, accents and emoji pass untouched. */
class PrintableTest {
    @Test
    void controlCharactersAreEscaped() {
        assertThat(Printable.escape("a\nb\rc\td")).isEqualTo("a\\nb\\rc\\td");
        assertThat(Printable.escape("\u0000\u0007\u001B[2J\u007F")).isEqualTo("\\x00\\x07\\x1B[2J\\x7F");
        assertThat(Printable.escape("\u0085\u009B\u2028\u2029")).isEqualTo("\\u0085\\u009B\\u2028\\u2029");
    }

    @Test
    void bytesOfANameThatIsNotUtf8AndLoneSurrogatesAreEscaped() {
        assertThat(Printable.escape("caf\uDCE9.json")).isEqualTo("caf\\xE9.json");
        assertThat(Printable.escape("x\uD800y\uDFFF")).isEqualTo("x\\uD800y\\uDFFF");
    }

    @Test
    void printableTextIsLeftAsItIs() {
        String s = "in/café 日本 😀 \\x41 \"q\" ~";
        assertThat(Printable.escape(s)).isSameAs(s);
        assertThat(Printable.escape(null)).isNull();
    }
}
