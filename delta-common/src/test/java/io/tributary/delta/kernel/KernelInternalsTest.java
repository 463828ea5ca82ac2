package io.tributary.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kernel members that the door reaches by reflection are where it expects them: a Kernel upgrade that
 * renames, moves or retypes one fails here, naming it, rather than at a user's first schema change.
 * (Its uses of {@code io.delta.kernel.internal} classes are checked by the compiler.)
 */
class KernelInternalsTest {
    static String[][] transactionFields() {
        return KernelTransactions.FIELDS;
    }

    @ParameterizedTest(name = "TransactionImpl.{0}")
    @MethodSource("transactionFields")
    void eachTransactionFieldASchemaChangeSetsIsThere(String name, String type) throws ReflectiveOperationException {
        Class<?> impl = io.delta.kernel.internal.TransactionImpl.class;
        assertThat(Arrays.stream(impl.getDeclaredFields()).map(Field::getName))
                .as("Delta Kernel's %s has no field %s any more: KernelTransactions.setSchema cannot change a table's schema; "
                        + "find where this Kernel version keeps it", impl.getName(), name)
                .contains(name);
        Field f = KernelTransactions.field(name);
        assertThat(f.getType().getName()).as("the type of %s.%s", impl.getName(), name).isEqualTo(type);
    }

    @org.junit.jupiter.api.Test
    void theSnapshotMetadataFieldThatABuildPastConstraintsSetsIsThere() throws ReflectiveOperationException {
        Field f = KernelTransactions.snapshotField();
        assertThat(f.getType().getName()).as("the type of SnapshotImpl.%s: KernelTransactions.buildCheckedByCaller cannot write a table"
                + " with CHECK constraints", KernelTransactions.SNAPSHOT_METADATA[0]).isEqualTo(KernelTransactions.SNAPSHOT_METADATA[1]);
    }
}
