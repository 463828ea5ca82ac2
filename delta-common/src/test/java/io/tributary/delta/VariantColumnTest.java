package io.tributary.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Transaction;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import org.junit.jupiter.api.Test;

/**
 * Delta's VARIANT columns ({@code variantType} feature). Kernel 4.4 writes and reads none of their data itself: the sink writes
 * the Parquet group with its own writer, and readers read the group as a struct of two BINARY fields.
 */
class VariantColumnTest {
    private static final StructType WITH_VARIANT = new StructType().add("id", IntegerType.INTEGER).add("payload", VariantType.VARIANT);

    /** When this test fails, Kernel has learnt to write VARIANT data and its own writer could take it. */
    @Test
    void kernelWritesNoVariantData() {
        assertThatThrownBy(() -> Transaction.blockIfVariantDataTypeIsDefined(WITH_VARIANT))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("variant data is currently unsupported");
    }

    @Test
    void aVariantColumnIsVariantBothWays() {
        Schema schema = KernelSchemas.fromKernel("/tables/silver", WITH_VARIANT);
        assertThat(schema.field(1).type()).isEqualTo(DataType.VARIANT);
        assertThat(schema.field(1).type().ddl()).isEqualTo("VARIANT");
        assertThat(KernelSchemas.toKernel(schema)).isEqualTo(WITH_VARIANT);
    }

    @Test
    void readersReadAVariantAsTheGroupOfItsValueAndMetadata() {
        StructType nested = WITH_VARIANT.add("history", new ArrayType(VariantType.VARIANT, true));
        StructType physical = KernelSchemas.physicalVariants(nested);
        StructType group = new StructType().add("value", BinaryType.BINARY, false).add("metadata", BinaryType.BINARY, false);
        assertThat(physical.get("payload").getDataType()).isEqualTo(group);
        assertThat(((ArrayType) physical.get("history").getDataType()).getElementType()).isEqualTo(group);
        assertThat(physical.get("id").getDataType()).isEqualTo(IntegerType.INTEGER);
        assertThat(KernelSchemas.hasVariant(nested)).isTrue();
        assertThat(KernelSchemas.hasVariant(new StructType().add("id", IntegerType.INTEGER))).isFalse();
    }
}
