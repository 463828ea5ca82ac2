package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.tributary.delta.kernel.KernelChangeData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The change data feed of a rewrite (upsert) on a table with {@code delta.enableChangeDataFeed=true},
 * as Spark's MERGE writes it: the rows it changed, each with its {@code _change_type}
 * ({@code insert}, {@code update_preimage} and {@code update_postimage}, {@code delete}), in change data
 * files under {@code _change_data/}, whose {@code cdc} actions go into the commit beside the removes and
 * adds. A reader of the feed then reads the commit's changes from them and ignores its adds and removes
 * (PROTOCOL.md, "Change Data Files"). A commit that removes nothing needs no change files: its adds are
 * its inserts, and so no rows are kept. Off (every method a no-op) on a table without the feed.
 */
final class ChangeFeed {
    static final String INSERT = "insert";
    static final String UPDATE_PREIMAGE = "update_preimage";
    static final String UPDATE_POSTIMAGE = "update_postimage";
    static final String DELETE = "delete";

    private final boolean on;
    private final List<Object[]> rows = new ArrayList<>();

    private ChangeFeed(boolean on) {
        this.on = on;
    }

    /** The feed of a plan on {@code snapshot}: on when the table has the change data feed on. */
    static ChangeFeed of(Optional<Snapshot> snapshot) {
        return new ChangeFeed(snapshot.map(ChangeFeed::enabled).orElse(false));
    }

    /** True when the table has the feed on: the rows a batch changes are kept for it. */
    boolean on() {
        return on;
    }

    static boolean enabled(Snapshot snapshot) {
        return "true".equalsIgnoreCase(snapshot.getTableProperties().getOrDefault("delta.enableChangeDataFeed", "false"));
    }

    /** Records a change of a table row ({@code row}: the table's columns, or more, of which the first {@code width} are kept). */
    void add(String changeType, Object[] row, int width) {
        if (on) {
            Object[] out = Arrays.copyOf(row, width + 1);
            out[width] = changeType;
            rows.add(out);
        }
    }

    /**
     * The commit's actions: {@code removes} and {@code adds}, with the change files' {@code cdc} actions when
     * the feed is on and the commit removes files ({@link KernelChangeData#changeDataCommit}); the change files
     * are written through {@code txn}. Returns the actions and how many are {@code cdc}.
     */
    Map.Entry<List<Row>, Integer> commit(DeltaTableWriter writer, Transaction txn, List<Row> removes, List<Row> adds) {
        List<Row> cdc = on && !removes.isEmpty() ? writer.files().writeChanges(txn, rows) : List.of();
        List<Row> actions = new ArrayList<>();
        if (cdc.isEmpty()) {
            actions.addAll(removes);
            actions.addAll(adds);
        } else {
            actions.addAll(KernelChangeData.changeDataCommit(removes, adds, cdc));
        }
        return Map.entry(actions, cdc.size());
    }
}
