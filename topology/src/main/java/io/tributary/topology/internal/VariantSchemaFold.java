package io.tributary.topology.internal;

import io.tributary.expressions.SchemaOfVariantAgg;

/**
 * {@code schema_of_variant_agg(v)}: the schemas of a group's VARIANT values merged as Spark 4.2's {@code SchemaOfVariantAgg}
 * merges them, from the column the source computes of each row's {@code schema_of_variant(v)} text (a topic carries no
 * VARIANT). As in Spark's streaming aggregation, a batch's rows are merged apart and then into the schema the earlier batches
 * left; VOID when no row had a value.
 */
record VariantSchemaFold(int col) implements Accumulator {
    /** The schema of the earlier batches and of this batch's rows (either null before a value). */
    record State(String stored, String batch) {
    }

    public Object zero() {
        return new State(null, null);
    }

    public Object add(Object s, Object[] row) {
        State state = (State) s;
        String next = (String) row[col];
        return next == null ? state : new State(state.stored, SchemaOfVariantAgg.merge(state.batch, next));
    }

    @Override
    public Object nextBatch(Object s) {
        return new State(saved((State) s), null);
    }

    private static String saved(State s) {
        return SchemaOfVariantAgg.merge(s.stored, s.batch);
    }

    public Object merge(Object a, Object b) {
        return new State(SchemaOfVariantAgg.merge(saved((State) a), saved((State) b)), null);
    }

    public Object result(Object s) {
        return SchemaOfVariantAgg.result(saved((State) s));
    }

    public void write(ByteSink out, Object s) {
        State state = (State) s;
        for (String t : new String[] {state.stored, state.batch}) {
            out.writeByte(t == null ? 0 : 1);
            if (t != null) {
                out.writeString(t);
            }
        }
    }

    public Object read(ByteSource in) {
        String stored = in.readByte() == 0 ? null : in.readString();
        String batch = in.readByte() == 0 ? null : in.readString();
        return new State(stored, batch);
    }
}
