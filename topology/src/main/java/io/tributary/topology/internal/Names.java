package io.tributary.topology.internal;

/** The names of the topology's nodes and stores (stores name their changelog topics). */
public record Names(String prefix) {
    public String source() {
        return prefix + "-events";
    }

    public String processor() {
        return prefix + "-windowed-aggregate";
    }

    /** The deduplication's keys in state. */
    public String keysStore() {
        return prefix + "-keys";
    }

    public String windowsStore() {
        return prefix + "-windows";
    }

    /** The open sessions' store, of an aggregation over session windows (in place of {@link #windowsStore()}). */
    public String sessionsStore() {
        return prefix + "-sessions";
    }

    public String metaStore() {
        return prefix + "-meta";
    }

    /** The store whose flush runs before each commit (no data, no changelog): see {@link CommitHook}. */
    public String commitHook() {
        return prefix + "-commit-hook";
    }

    public String resultsSink() {
        return prefix + "-results";
    }

    public String lateRowsSink() {
        return prefix + "-late-rows";
    }
}
