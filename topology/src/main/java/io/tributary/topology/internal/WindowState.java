package io.tributary.topology.internal;

/** Spark's time windows ({@code window(ts, size, slide)}) as an {@link OpenState}: the open windows and the output mode's policy. */
final class WindowState implements OpenState {
    private final OpenWindows windows;
    private final WindowAssigner assigner;
    private final OutputPolicy policy;

    WindowState(OpenWindows windows, WindowAssigner assigner, OutputPolicy policy) {
        this.windows = windows;
        this.assigner = assigner;
        this.policy = policy;
    }

    public boolean dropsLateRows() {
        return policy.dropsLateRows();
    }

    public int maxSlots() {
        return assigner.maxWindows();
    }

    public int assign(long ts, long[] out) {
        return assigner.assign(ts, out);
    }

    public long span() {
        return assigner.size();
    }

    public byte[] groupBytesOf(Object[] groupValues) {
        return windows.groupBytesOf(groupValues);
    }

    public int update(long start, byte[] groupBytes, Object[] row, long seq) {
        return windows.update(start, groupBytes, row, seq);
    }

    public boolean overBudget() {
        return windows.overBudget();
    }

    public int mapSize() {
        return windows.mapSize();
    }

    public void flush() {
        windows.flush();
    }

    @Override
    public boolean closesInSteps() {
        return policy.closesInSteps();
    }

    @Override
    public OutputPolicy.Step closeStep(long from, long bound, long limit, Emit emit) {
        return ((OutputPolicy.Append) policy).closeStep(windows, from, bound, limit,
                (key, keyOffset, start, states) -> emit.row(windows.outputRow(key, keyOffset, start, states)));
    }

    public long endBatch(Long watermarkMicros, long seq, Emit emit) {
        return policy.endBatch(windows, watermarkMicros, seq, (key, keyOffset, start, states) -> emit.row(windows.outputRow(key, keyOffset, start, states)));
    }
}
