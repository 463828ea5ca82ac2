package io.tributary.schema;

/**
 * Named moments at which a test can stop the process dead, as a SIGKILL would: set the
 * environment variable {@value #ENV} (or the system property {@value #PROPERTY}) to a point's name
 * and the process halts with exit code {@value #EXIT_CODE} when it gets there. Unset, a point
 * costs one field read.
 */
public final class CrashPoint {
    public static final String ENV = "TRIBUTARY_CRASH_AT";
    public static final String PROPERTY = "tributary.crashAt";
    public static final int EXIT_CODE = 137;

    /** Rows produced, the ingest transaction not yet committed. */
    public static final String INGEST_BEFORE_COMMIT = "ingest.beforeCommit";
    /** The ingest transaction committed, nothing else done yet. */
    public static final String INGEST_AFTER_COMMIT = "ingest.afterCommit";
    /** With cleanSource archive or delete: the batch committed, its files not yet moved or deleted. */
    public static final String INGEST_BEFORE_CLEAN = "ingest.beforeClean";
    /** A Delta source's batch (rows, progress record, markers) produced, its transaction not yet committed. */
    public static final String DELTA_SOURCE_BEFORE_COMMIT = "deltaSource.beforeCommit";
    /** A Delta source's batch committed, nothing else done yet. */
    public static final String DELTA_SOURCE_AFTER_COMMIT = "deltaSource.afterCommit";
    /** An aggregation over a Kafka source: a batch's bounds published, no task has ended the batch yet. */
    public static final String AGGREGATE_KAFKA_AFTER_BATCH = "aggregate.kafka.afterBatch";
    /** Parquet files written, the Delta commit not yet made. */
    public static final String SINK_BEFORE_COMMIT = "sink.beforeCommit";
    /** The Delta commit made, nothing else (no post-commit hook, no local state) done yet. */
    public static final String SINK_AFTER_COMMIT = "sink.afterCommit";
    /** An upsert's batch (mode upsert: MERGE by key) on a table with deletion vectors: its vector file written, nothing else. */
    public static final String SINK_REWRITE_AFTER_VECTORS = "sink.rewrite.afterVectors";
    /** An upsert's batch planned: vectors, data and change data files written, the Delta commit not yet made. */
    public static final String SINK_REWRITE_BEFORE_COMMIT = "sink.rewrite.beforeCommit";
    /** An upsert's Delta commit made, nothing else (no post-commit hook) done yet. */
    public static final String SINK_REWRITE_AFTER_COMMIT = "sink.rewrite.afterCommit";

    private static final String ARMED = System.getProperty(PROPERTY, System.getenv(ENV));

    private CrashPoint() {
    }

    /** Halts the process if {@code name} is the armed point. */
    public static void reach(String name) {
        if (ARMED != null && ARMED.equals(name)) {
            System.err.println("tributary: crash point " + name + " reached: halting");
            System.err.flush();
            Runtime.getRuntime().halt(EXIT_CODE);
        }
    }
}
