package io.tributary.delta.kernel;

import io.delta.kernel.Transaction;
import io.delta.kernel.internal.TransactionImpl;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.tablefeatures.TableFeature;
import io.delta.kernel.internal.tablefeatures.TableFeatures;
import io.delta.kernel.internal.util.Tuple2;
import io.delta.kernel.types.StructType;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The private fields of Kernel's transaction that a schema change sets, the one reflective access to
 * Kernel: Kernel 4.4 changes a schema only on tables with column mapping, which its own writer cannot
 * write, so the new schema (and the protocol a new type needs) is set on the transaction Kernel built.
 * Kernel then commits, checksums and checkpoints it as its own. {@link #FIELDS} names each field;
 * {@code KernelInternalsTest} checks they are there.
 */
public final class KernelTransactions {
    /** The fields of {@code TransactionImpl} set here, each with its type's name. */
    static final String[][] FIELDS = {
        {"metadata", Metadata.class.getName()},
        {"shouldUpdateMetadata", "boolean"},
        {"protocol", Protocol.class.getName()},
        {"shouldUpdateProtocol", "boolean"},
    };

    private KernelTransactions() {
    }

    /** Makes {@code txn}, built on the table's current metadata, commit {@code schema} instead. */
    public static void setSchema(Transaction txn, StructType schema) {
        if (!(txn instanceof TransactionImpl impl)) {
            throw new IllegalStateException("not a Kernel transaction: " + txn.getClass());
        }
        try {
            Metadata grown = ((Metadata) field("metadata").get(impl)).withNewSchema(schema);
            field("metadata").set(impl, grown);
            field("shouldUpdateMetadata").setBoolean(impl, true);
            // a type the schema now holds may need its table feature (TIMESTAMP_NTZ: timestampNtz), as Kernel
            // adds it when it creates a table with that type; Spark refuses a table whose protocol lacks it
            Optional<Tuple2<Protocol, Set<TableFeature>>> upgraded =
                    TableFeatures.autoUpgradeProtocolBasedOnMetadata(grown, List.of(), impl.getProtocol());
            if (upgraded.isPresent()) {
                field("protocol").set(impl, upgraded.get()._1);
                field("shouldUpdateProtocol").setBoolean(impl, true);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Delta Kernel version keeps a transaction's metadata elsewhere; Tributary cannot"
                    + " change a table's schema with it", e);
        }
    }

    /** {@code TransactionImpl}'s field {@code name}, made accessible. */
    static Field field(String name) throws NoSuchFieldException {
        Field f = TransactionImpl.class.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
