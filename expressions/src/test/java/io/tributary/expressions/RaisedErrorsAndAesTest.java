package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * raise_error and assert_true fail the row as any row Spark fails on (an {@link ExpressionException} with Spark's error class,
 * which the stages send to the dead-letter topic or stop on); aes_encrypt with a random iv decrypts back to its input.
 */
class RaisedErrorsAndAesTest {
    private static final Schema INPUT = Schema.parse("id INT, s STRING");

    @Test
    void raiseErrorFailsTheRowWithItsMessage() {
        Transform t = Transform.compile(INPUT, null, List.of("id", "if(id > 0, s, raise_error(concat('bad id ', id))) AS checked"));
        assertThat(t.apply(new Object[] {1, "a"})).containsExactly(1, "a");
        assertThatThrownBy(() -> t.apply(new Object[] {-3, "b"})).isInstanceOfSatisfying(ExpressionException.class, e -> {
            assertThat(e.condition()).isEqualTo("USER_RAISED_EXCEPTION");
            assertThat(e.reason()).isEqualTo("bad id -3");
            assertThat(e.expression()).isEqualTo("raise_error(concat('bad id ', id))");
        });
        assertThat(t.apply(new Object[] {2, null})).containsExactly(2, null);
    }

    @Test
    void assertTrueSaysWhatWasNotTrue() {
        Transform t = Transform.compile(INPUT, "assert_true(id > 0) IS NULL", List.of("id"));
        assertThat(t.apply(new Object[] {5, "x"})).containsExactly(5);
        for (Integer id : new Integer[] {0, null}) {
            assertThatThrownBy(() -> t.apply(new Object[] {id, "x"})).isInstanceOfSatisfying(ExpressionException.class, e -> {
                assertThat(e.condition()).isEqualTo("USER_RAISED_EXCEPTION");
                assertThat(e.reason()).isEqualTo("'id > 0' is not true!");
            });
        }
        Transform custom = Transform.compile(INPUT, "assert_true(s IS NOT NULL, 'every row has an s') IS NULL", List.of("id"));
        assertThatThrownBy(() -> custom.apply(new Object[] {1, null})).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("USER_RAISED_EXCEPTION: every row has an s");
    }

    @Test
    void aRandomIvEncryptsDifferentlyAndDecryptsBack() {
        for (String mode : List.of("GCM", "CBC")) {
            for (String key : List.of("0000111122223333", "000011112222333344445555", "00001111222233334444555566667777")) {
                Transform t = Transform.compile(INPUT, null, List.of("aes_encrypt(s, '" + key + "', '" + mode + "') AS c"));
                Transform back = Transform.compile(Schema.parse("c BINARY"), null,
                        List.of("cast(aes_decrypt(c, '" + key + "', '" + mode + "') AS STRING) AS s"));
                for (String s : List.of("", "Spark", "ü € 𝄞", "x".repeat(1000))) {
                    byte[] a = (byte[]) t.apply(new Object[] {1, s})[0];
                    byte[] b = (byte[]) t.apply(new Object[] {1, s})[0];
                    assertThat(a).as(mode + " " + s).isNotEqualTo(b);
                    assertThat(back.apply(new Object[] {a})[0]).isEqualTo(s);
                    assertThat(back.apply(new Object[] {b})[0]).isEqualTo(s);
                    assertThat(a.length).isGreaterThan(s.getBytes(StandardCharsets.UTF_8).length);
                }
            }
        }
    }

    @Test
    void aWrongKeyFailsTheRowAndTryGivesNull() {
        Transform t = Transform.compile(Schema.parse("c BINARY"), null,
                List.of("try_aes_decrypt(c, '0000111122223334') AS t", "aes_decrypt(c, '0000111122223333') AS d"));
        byte[] c = (byte[]) Transform.compile(INPUT, null, List.of("aes_encrypt(s, '0000111122223333') AS c")).apply(new Object[] {1, "k"})[0];
        assertThat(t.apply(new Object[] {c})).containsExactly(null, "k".getBytes(StandardCharsets.UTF_8));
        Transform wrong = Transform.compile(Schema.parse("c BINARY"), null, List.of("aes_decrypt(c, '0000111122223334') AS d"));
        assertThatThrownBy(() -> wrong.apply(new Object[] {c})).isInstanceOfSatisfying(ExpressionException.class,
                e -> assertThat(e.condition()).isEqualTo("INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR"));
    }
}
