package io.tributary.delta.kernel;

import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.GenericRow;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The door's part for the change data feed: {@code cdc} actions, which Kernel 4.4 has no API for, and the
 * committer that writes a change-data commit Kernel would refuse ({@link #changeDataCommit}).
 * {@code ChangeDataCommitTest} fails when a Kernel upgrade changes either.
 */
public final class KernelChangeData {
    private KernelChangeData() {
    }

    /** The {@code cdc} action's fields (PROTOCOL.md, "Add CDC File"). */
    public static final StructType CDC_ACTION_SCHEMA = new StructType()
            .add("path", StringType.STRING, false)
            .add("partitionValues", new MapType(StringType.STRING,
                    StringType.STRING, true), false)
            .add("size", LongType.LONG, false)
            .add("dataChange", BooleanType.BOOLEAN, false)
            .add("tags", new MapType(StringType.STRING,
                    StringType.STRING, true), true);
    /**
     * The schema of a commit row that carries a {@code cdc} action: Kernel's action schema (which has no
     * {@code cdc}) followed by {@code cdc}, so that Kernel's checks, which read actions by ordinal, see no
     * add or remove in it, and the JSON writer writes the {@code cdc} field.
     */
    private static final StructType CDC_SINGLE_ACTION_SCHEMA = SingleAction.FULL_SCHEMA.add("cdc", CDC_ACTION_SCHEMA);

    /**
     * A {@code cdc} action for {@code Transaction.commit}: a change data file ({@code _change_data/...}, its
     * path relative to the table root), its partition values (serialized; empty when unpartitioned) and size.
     * Kernel 4.4 has no API for them; it writes the row as given.
     */
    public static Row cdcAction(String relativePath, Map<String, String> partitionValues, long size) {
        Map<Integer, Object> cdc = new HashMap<>();
        cdc.put(CDC_ACTION_SCHEMA.indexOf("path"), relativePath);
        cdc.put(CDC_ACTION_SCHEMA.indexOf("partitionValues"), VectorUtils.stringStringMapValue(partitionValues));
        cdc.put(CDC_ACTION_SCHEMA.indexOf("size"), size);
        cdc.put(CDC_ACTION_SCHEMA.indexOf("dataChange"), false);
        return new GenericRow(CDC_SINGLE_ACTION_SCHEMA, Map.of(CDC_SINGLE_ACTION_SCHEMA.indexOf("cdc"),
                new GenericRow(CDC_ACTION_SCHEMA, cdc)));
    }

    /** True when a commit row is a {@code cdc} action made by {@link #cdcAction}. */
    public static boolean isCdcAction(Row action) {
        int i = action.getSchema().indexOf("cdc");
        return i >= 0 && !action.isNullAt(i);
    }

    /**
     * The actions of a commit that carries change data files: {@code removes} ({@code dataChange=true}),
     * {@code adds} and the {@code cdc} actions, in a form Kernel commits on a table with the change data
     * feed on. Kernel 4.4 refuses a commit with both an add and a remove that change data on such a table
     * ("would require writing CDC files ... not yet supported": {@code TransactionImpl.doCommit}), although the
     * protocol allows it once the commit has {@code cdc} actions (Spark's MERGE, UPDATE and DELETE write
     * exactly that). So each remove is handed to Kernel looking like {@code dataChange=false}, and
     * {@link #committer()} writes it with {@code dataChange=true}, as it was built. Transactions must be built
     * on a snapshot loaded {@code withCommitter(KernelChangeData.committer())}.
     */
    public static List<Row> changeDataCommit(List<Row> removes, List<Row> adds, List<Row> cdcActions) {
        List<Row> out = new java.util.ArrayList<>(removes.size() + adds.size() + cdcActions.size());
        for (Row remove : removes) {
            out.add(cdcActions.isEmpty() ? remove : new HiddenDataChange(remove));
        }
        out.addAll(adds);
        out.addAll(cdcActions);
        return out;
    }

    /**
     * The committer of the Delta stages: Kernel's own for path tables, writing each remove that
     * {@link #changeDataCommit} made look like no data change as it was built.
     */
    public static io.delta.kernel.commit.Committer committer() {
        return CDC_COMMITTER;
    }

    private static final io.delta.kernel.commit.Committer CDC_COMMITTER = (engine, actions, metadata) ->
            io.delta.kernel.internal.commit.DefaultFileSystemManagedTableOnlyCommitter.INSTANCE.commit(engine,
                    actions.map(a -> a instanceof HiddenDataChange h ? h.action : a), metadata);

    /** A remove action whose {@code dataChange} reads false; the committer unwraps it. */
    static final class HiddenDataChange extends DelegatingRow {
        private final Row action;

        HiddenDataChange(Row action) {
            super(action);
            this.action = action;
        }

        @Override
        public Row getStruct(int ordinal) {
            Row struct = action.getStruct(ordinal);
            if (ordinal != SingleAction.REMOVE_FILE_ORDINAL || struct == null) {
                return struct;
            }
            int dataChange = struct.getSchema().indexOf("dataChange");
            return new DelegatingRow(struct) {
                @Override
                public boolean getBoolean(int i) {
                    return i != dataChange && super.getBoolean(i);
                }
            };
        }
    }

    /** A row that reads another. */
    static class DelegatingRow implements Row {
        private final Row row;

        DelegatingRow(Row row) {
            this.row = row;
        }

        @Override public StructType getSchema() { return row.getSchema(); }
        @Override public boolean isNullAt(int i) { return row.isNullAt(i); }
        @Override public boolean getBoolean(int i) { return row.getBoolean(i); }
        @Override public byte getByte(int i) { return row.getByte(i); }
        @Override public short getShort(int i) { return row.getShort(i); }
        @Override public int getInt(int i) { return row.getInt(i); }
        @Override public long getLong(int i) { return row.getLong(i); }
        @Override public float getFloat(int i) { return row.getFloat(i); }
        @Override public double getDouble(int i) { return row.getDouble(i); }
        @Override public String getString(int i) { return row.getString(i); }
        @Override public java.math.BigDecimal getDecimal(int i) { return row.getDecimal(i); }
        @Override public byte[] getBinary(int i) { return row.getBinary(i); }
        @Override public Row getStruct(int i) { return row.getStruct(i); }
        @Override public io.delta.kernel.data.ArrayValue getArray(int i) { return row.getArray(i); }
        @Override public MapValue getMap(int i) { return row.getMap(i); }
    }
}
