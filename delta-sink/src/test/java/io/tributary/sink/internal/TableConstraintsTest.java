package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableConstraintsTest {
    private static final Schema ROWS = Schema.parse("id BIGINT, amt BIGINT, name STRING");

    @Test
    void aRowWhoseConstraintIsFalseOrNullViolatesIt() {
        TableConstraints c = TableConstraints.compile("/t", Map.of("amt_positive", "amt > 0"), ROWS);
        assertThat(c.violation(new Object[] {1L, 5L, "a"})).isNull();
        BadRecordException falseOne = c.violation(new Object[] {2L, -3L, "b"});
        assertThat(falseOne.field()).isEqualTo("amt_positive");
        assertThat(falseOne.reason()).contains("CHECK constraint amt_positive (amt > 0)").contains("is false").contains("amt = -3");
        // as Delta's CheckDeltaInvariant: a null result is a violation
        assertThat(c.violation(new Object[] {3L, null, "c"}).reason()).contains("is null").contains("amt = null");
    }

    @Test
    void everyConstraintIsCheckedAndTheFirstViolatedNamed() {
        TableConstraints c = TableConstraints.compile("/t", Map.of("a_pos", "amt > 0", "b_name", "length(name) < 3"), ROWS);
        assertThat(c.violation(new Object[] {1L, 5L, "ab"})).isNull();
        assertThat(c.violation(new Object[] {1L, 5L, "abcd"}).field()).isEqualTo("b_name");
    }

    @Test
    void aConstraintThatDoesNotCompileIsRefusedNamingIt() {
        assertThatThrownBy(() -> TableConstraints.compile("/t", Map.of("bad", "amt >"), ROWS))
                .isInstanceOf(TributaryException.class).hasMessageContaining("constraint bad CHECK (amt >)")
                .hasMessageContaining("DROP CONSTRAINT bad");
        assertThatThrownBy(() -> TableConstraints.compile("/t", Map.of("other", "missing > 0"), ROWS))
                .hasMessageContaining("constraint other CHECK (missing > 0)");
    }

    @Test
    void constraintsAreTheTablePropertiesAndTheColumnsInvariants() {
        StructType schema = new StructType().add("id", LongType.LONG)
                .add("amt", LongType.LONG, true, FieldMetadata.builder()
                        .putString("delta.invariants", "{\"expression\":{\"expression\":\"amt < 100\"}}").build())
                .add("name", StringType.STRING);
        Map<String, String> texts = TableConstraints.texts(Map.of("delta.constraints.amt_positive", "amt > 0",
                "delta.appendOnly", "false"), schema);
        assertThat(texts).containsExactlyInAnyOrderEntriesOf(Map.of("amt_positive", "amt > 0", "invariant(amt)", "amt < 100"));
    }

    @Test
    void noTableOrNoConstraintKeepsNone() {
        assertThat(TableConstraints.NONE.forTable("/t", Optional.empty(), ROWS)).isSameAs(TableConstraints.NONE);
    }
}
