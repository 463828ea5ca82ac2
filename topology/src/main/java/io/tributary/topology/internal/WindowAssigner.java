package io.tributary.topology.internal;

/**
 * Spark's {@code window(ts, size, slide)}: windows {@code [start, start + size)} with start a
 * multiple of slide since the epoch; a timestamp belongs to every window that contains it
 * ({@code ceil(size / slide)} at most). Microseconds throughout.
 */
final class WindowAssigner {
    private final long size;
    private final long slide;

    WindowAssigner(long sizeMicros, long slideMicros) {
        this.size = sizeMicros;
        this.slide = slideMicros;
    }

    int maxWindows() {
        return (int) ((size + slide - 1) / slide);
    }

    long size() {
        return size;
    }

    /** Writes the starts of the windows holding {@code ts}, oldest first, into {@code out}; returns how many. */
    int assign(long ts, long[] out) {
        long lastStart = ts - Math.floorMod(ts, slide);
        int n = 0;
        for (long start = lastStart; start > ts - size; start -= slide) {
            n++;
        }
        for (int i = 0; i < n; i++) {
            out[i] = lastStart - (long) (n - 1 - i) * slide;
        }
        return n;
    }
}
