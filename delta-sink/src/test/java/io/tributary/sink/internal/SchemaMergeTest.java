package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

class SchemaMergeTest {
    private static SchemaMerge.Result merge(String table, String pipeline, boolean mergeSchema, boolean widening) {
        return SchemaMerge.merge("/t", Schema.parse(table), Schema.parse(pipeline), mergeSchema, widening);
    }

    @Test
    void newColumnsAndStructFieldsGoLastAndNullable() {
        SchemaMerge.Result r = merge("id INT, s STRUCT<a: INT>, n STRING", "ID INT, x DOUBLE NOT NULL, s STRUCT<a: INT, b: STRING>", true, false);
        assertThat(r.schema().toDdl()).isEqualTo("id INT, s STRUCT<a: INT, b: STRING>, n STRING, x DOUBLE");
        assertThat(r.added()).containsExactly("s.b", "x");
        assertThat(r.widened()).isEmpty();
    }

    @Test
    void withoutMergeSchemaNewColumnsAreRefusedShowingBothSchemas() {
        assertThatThrownBy(() -> merge("id INT", "id INT, extra STRING", false, false))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("lacks the pipeline's column extra")
                .hasMessageContaining("table: id INT; pipeline: id INT, extra STRING")
                .hasMessageContaining("sink.delta.mergeSchema: true");
    }

    @Test
    void aTableColumnThePipelineLacksIsWrittenNullUnlessNotNull() {
        assertThat(merge("id INT, old STRING", "id INT", false, false).schema().toDdl()).isEqualTo("id INT, old STRING");
        assertThatThrownBy(() -> merge("id INT, old STRING NOT NULL", "id INT", true, false)).hasMessageContaining("old STRING NOT NULL")
                .hasMessageContaining("NOT NULL");
    }

    @Test
    void wideningNeedsTheTypeWideningFeatureAndOtherChangesAreRefused() {
        assertThatThrownBy(() -> merge("id INT", "id BIGINT", true, false)).hasMessageContaining("delta.enableTypeWidening=true");
        SchemaMerge.Result r = merge("id INT, d DATE, p DECIMAL(10,2)", "id BIGINT, d TIMESTAMP_NTZ, p DECIMAL(12,2)", true, true);
        assertThat(r.schema().toDdl()).isEqualTo("id BIGINT, d TIMESTAMP_NTZ, p DECIMAL(12,2)");
        assertThat(r.widened()).hasSize(3);
        assertThatThrownBy(() -> merge("id BIGINT", "id STRING", true, true)).hasMessageContaining("does not change a column to that type");
        assertThat(merge("id BIGINT", "id INT", false, false).schema().toDdl()).as("a narrower value fits").isEqualTo("id BIGINT");
    }
}
