package io.tributary.delta;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Transaction;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * Delta's VARIANT columns ({@code variantType} feature): Kernel 4.4 writes none, so a table that has one is refused at start with
 * the column's name. When this test fails, Kernel has learnt to write VARIANT and the sink can take it.
 */
class VariantColumnTest {
    private static final StructType WITH_VARIANT = new StructType().add("id", IntegerType.INTEGER).add("payload", VariantType.VARIANT);

    @Test
    void kernelWritesNoVariantColumn() {
        assertThatThrownBy(() -> Transaction.blockIfVariantDataTypeIsDefined(WITH_VARIANT))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("variant data is currently unsupported");
    }

    @Test
    void aTableWithAVariantColumnIsRefusedNamingTheColumn() {
        assertThatThrownBy(() -> KernelSchemas.fromKernel("/tables/bronze", WITH_VARIANT))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("delta table /tables/bronze has column 'payload' of Delta type variant");
    }
}
