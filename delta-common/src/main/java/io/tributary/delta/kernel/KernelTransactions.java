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

    /** The field of {@code SnapshotImpl} that {@link #buildCheckedByCaller} sets for the time of a build, with its type's name. */
    static final String[] SNAPSHOT_METADATA = {"metadata", Metadata.class.getName()};
    /** The table property prefix of a CHECK constraint. */
    private static final String CONSTRAINT_PREFIX = "delta.constraints.";
    /** The column metadata key of a legacy invariant. */
    private static final String INVARIANTS = "delta.invariants";

    private KernelTransactions() {
    }

    /**
     * {@code build}'s transaction on {@code snapshot}, whose table has CHECK constraints
     * ({@code delta.constraints.*}) or invariants ({@code delta.invariants}) that the caller checks on
     * every row itself, or that its rows hold already (a compaction rewrites rows of the table): Kernel
     * 4.4 refuses to write such a table at all (it cannot evaluate them).
     * Kernel builds the transaction on the snapshot's metadata without them; the transaction then
     * carries the table's metadata with them again, so a commit that writes metadata (a protocol or
     * schema change) keeps them. A snapshot without either is built on as it is.
     */
    public static Transaction buildCheckedByCaller(io.delta.kernel.Snapshot snapshot,
                                                   java.util.function.Function<io.delta.kernel.Snapshot, Transaction> build) {
        if (!(snapshot instanceof io.delta.kernel.internal.SnapshotImpl impl)) {
            return build.apply(snapshot);
        }
        Metadata real = impl.getMetadata();
        java.util.Map<String, String> constraints = new java.util.HashMap<>();
        real.getConfiguration().forEach((k, v) -> {
            if (k.startsWith(CONSTRAINT_PREFIX)) {
                constraints.put(k, v);
            }
        });
        StructType bare = withoutInvariants(real.getSchema());
        if (constraints.isEmpty() && bare.equals(real.getSchema())) {
            return build.apply(snapshot);
        }
        Metadata stripped = real.withConfigurationKeysUnset(constraints.keySet());
        if (!bare.equals(real.getSchema())) {
            stripped = stripped.withNewSchema(bare);
        }
        Transaction txn;
        try {
            Field snapshotMetadata = snapshotField();
            snapshotMetadata.set(impl, stripped);
            try {
                txn = build.apply(impl);
            } finally {
                snapshotMetadata.set(impl, real);
            }
            if (!(txn instanceof TransactionImpl t)) {
                throw new IllegalStateException("not a Kernel transaction: " + txn.getClass());
            }
            Metadata built = (Metadata) field("metadata").get(t);
            Metadata restored = built.withMergedConfiguration(constraints);
            if (built.getSchema().equals(bare)) {
                restored = restored.withNewSchema(real.getSchema());
            }
            field("metadata").set(t, restored);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Delta Kernel version keeps a snapshot's metadata elsewhere; Tributary cannot"
                    + " write a table with CHECK constraints or invariants with it", e);
        }
        return txn;
    }

    /** {@code schema} with no column's {@code delta.invariants} metadata, at any depth. */
    static StructType withoutInvariants(StructType schema) {
        List<io.delta.kernel.types.StructField> fields = new java.util.ArrayList<>();
        for (io.delta.kernel.types.StructField f : schema.fields()) {
            io.delta.kernel.types.StructField g = f;
            if (f.getDataType() instanceof StructType nested) {
                g = g.withDataType(withoutInvariants(nested));
            }
            if (f.getMetadata() != null && f.getMetadata().contains(INVARIANTS)) {
                g = g.withNewMetadata(io.delta.kernel.types.FieldMetadata.builder().fromMetadata(f.getMetadata()).remove(INVARIANTS).build());
            }
            fields.add(g);
        }
        return new StructType(fields);
    }

    /** {@code SnapshotImpl}'s field {@code metadata}, made accessible. */
    static Field snapshotField() throws NoSuchFieldException {
        Field f = io.delta.kernel.internal.SnapshotImpl.class.getDeclaredField(SNAPSHOT_METADATA[0]);
        f.setAccessible(true);
        return f;
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
