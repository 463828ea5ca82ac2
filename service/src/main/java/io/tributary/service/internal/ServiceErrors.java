package io.tributary.service.internal;

import io.tributary.schema.TributaryException;
import io.tributary.service.spec.Trigger;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.kafka.common.KafkaException;

/** The service's user-facing errors: its settings, its Kafka cluster, its state folder, its pipelines' specs and stages, and its bench. */
public final class ServiceErrors {
    private ServiceErrors() {
    }

    /** When the bench is asked for a scenario it does not have. */
    public static TributaryException unknownBenchScenario(String scenario) {
        return new TributaryException("bench: unknown scenario '" + scenario + "'; the ones there are: raw, service");
    }

    /** When the bench is asked for a format it does not have. */
    public static TributaryException unknownBenchFormat(String format, String formats) {
        return new TributaryException("bench: unknown --format '" + format + "'; the ones there are: " + formats);
    }

    /** When the bench's row, file or run counts are out of range. */
    public static TributaryException badBenchCounts() {
        return new TributaryException("bench: --rows must be >= 0; --files, --runs, --rate, --interval and --seconds >= 1");
    }

    /** When a bench run read another number of rows than it wrote. */
    public static TributaryException benchRowsLost(int run, long read, long written, Path folder) {
        return new TributaryException("bench: run " + run + " read " + read + " rows, not " + written + "; see " + folder);
    }

    /** When the first run of a bench, outside the medians, reads fewer or more rows than were written. */
    public static TributaryException benchFirstRunRowsLost(long read, long written, Path folder) {
        return new TributaryException("bench: the first run read " + read + " rows, not " + written + "; see " + folder);
    }

    /** When the bench cannot find bin/tributary. */
    public static TributaryException noLauncher(String home) {
        return new TributaryException("bench: cannot find bin/tributary (system property tributary.home is " + home
                + "); start the bench through the tributary command, which sets it");
    }

    /** When the HTTP endpoints cannot be served on the host and port. */
    public static TributaryException cannotServeHttp(String host, int port, String message, IOException cause) {
        return new TributaryException("cannot serve HTTP on " + host + ":" + port + ": " + message + "; choose another port "
                + "with --set http.port=N (0: any free port; -1: no HTTP endpoints)", cause);
    }

    /** When log.format is neither text nor json. */
    public static TributaryException unknownLogFormat(String text) {
        return new TributaryException("log.format '" + text + "' is not one of text, json");
    }

    /** When a size setting is not a size. */
    public static TributaryException notASize(String value) {
        return new TributaryException("'" + value + "' is not a size; write e.g. 134217728, 128m or 128 MiB");
    }

    /** When the Kafka cluster refuses the client. */
    public static TributaryException clusterRefused(String who, String message, Throwable cause) {
        return new TributaryException(who + " refused the client: " + message + "; check the security settings under kafka:",
                cause);
    }

    /** When interrupted while waiting for the Kafka cluster. */
    public static TributaryException interruptedAwaitingCluster(String who, InterruptedException cause) {
        return new TributaryException("interrupted while waiting for " + who, cause);
    }

    /** When a stop comes while the run waits for its Kafka cluster. */
    public static StoppedWhileStarting stoppedWhileStarting(String who) {
        return new StoppedWhileStarting("stopped while waiting for " + who + " to answer; nothing ran");
    }

    /** When the Kafka cluster does not answer in time; {@code boundSetting} names the setting that bounds the wait, or is null. */
    public static TributaryException clusterDidNotAnswer(String who, String format, String boundSetting) {
        return new TributaryException(who + " did not answer in " + format
                + (boundSetting == null ? "" : " (" + boundSetting + ")") + "; start it, or fix kafka.bootstrap.servers");
    }

    /** When the kafka: settings do not make a Kafka client. */
    public static TributaryException badKafkaSettings(String who, String rootMessage, KafkaException cause) {
        return new TributaryException("the kafka: settings do not make a Kafka client for " + who + ": " + rootMessage, cause);
    }

    /** When a bootstrap server is not host:port. */
    public static TributaryException notHostPort(String url) {
        return new TributaryException("kafka.bootstrap.servers: '" + url + "' is not host:port; give the broker's address as "
                + "host:port (e.g. kafka:9092), several separated by commas");
    }

    /** When kafka.bootstrap.servers is empty. */
    public static TributaryException noBootstrapServers() {
        return new TributaryException("kafka.bootstrap.servers is empty; give the broker's address as host:port, or leave the "
                + "setting out to run the embedded broker");
    }

    /** When a bootstrap server's host does not resolve. */
    public static TributaryException unresolvedHost(String unresolved, String servers) {
        return new TributaryException("kafka.bootstrap.servers: host " + unresolved + " does not resolve to an address ("
                + servers + "); fix the host name, or leave the setting out to run the embedded broker");
    }

    /** When interrupted while describing a pipeline's consumer groups. */
    public static TributaryException interruptedDescribingGroups(String pipeline, InterruptedException cause) {
        return new TributaryException("interrupted while describing the groups of pipeline " + pipeline, cause);
    }

    /** When a pipeline's consumer groups cannot be described. */
    public static TributaryException cannotDescribeGroups(String pipeline, Throwable cause) {
        return new TributaryException("cannot describe the consumer groups of pipeline " + pipeline + ": " + cause, cause);
    }

    /** When interrupted while opening a stage. */
    public static TributaryException interruptedOpeningStage(String name, InterruptedException cause) {
        return new TributaryException("interrupted while opening stage " + name, cause);
    }

    /** When the pipeline cannot be opened. */
    public static TributaryException cannotOpenPipeline(Throwable cause) {
        return new TributaryException("cannot open the pipeline: " + cause, cause);
    }

    /** When a stage's source was fenced and the stage stopped. */
    public static TributaryException stageStopped(String name, String fencedBy) {
        return new TributaryException("stage " + name + " stopped: " + fencedBy);
    }

    /** When a bounded run is asked of a pipeline whose instances are running. */
    public static TributaryException boundedRunWhileRunning(String name, Trigger trigger, String running,
                                                            String bootstrapServers) {
        return new TributaryException("pipeline " + name + ": a bounded run (trigger " + trigger + ") takes the whole "
                + "pipeline, but its instance(s) " + running + " run on the Kafka cluster at " + bootstrapServers
                + " (members of its groups): it would fence their source and take their partitions. Let the running instances "
                + "do the work, or stop them all (SIGTERM) before a bounded run");
    }

    /** When an instance's spec differs from the one its running instances share. */
    public static TributaryException specDiffersFromRunning(String name, String self, String running, String differing,
                                                            String docs) {
        return new TributaryException("pipeline " + name + ": the spec of instance " + self + " differs from the one its "
                + "running instance(s) " + running + " share, in " + differing + ": instances that disagree on these settings "
                + "would split or mix the pipeline's output. Start " + self + " with the running instances' spec; to change "
                + "the pipeline's logic, stop every instance first (" + docs + ")");
    }

    /** When the spec differs from the one the pipeline's instances last ran with. */
    public static TributaryException specDiffersFromLast(String name, String topic, String instance, String differing,
                                                         String docs) {
        return new TributaryException("pipeline " + name + ": the spec differs from the one its instances last ran with "
                + "(recorded in topic " + topic + " by instance " + instance + "), in " + differing + ": the table and the "
                + "aggregation's open windows were made with those settings. Start it with that spec; or, to change the "
                + "pipeline's logic, start one instance with --accept-spec-change and the others once it runs (" + docs + ")");
    }

    /** When the pipeline registry's topic is not visible. */
    public static TributaryException topicNotVisible(String topic) {
        return new TributaryException("topic " + topic + " is not visible; is the Kafka cluster reachable?");
    }

    /** When interrupted while recording a pipeline's settings. */
    public static TributaryException interruptedRecordingSettings(String name, String topic, InterruptedException cause) {
        return new TributaryException("interrupted while recording the settings of pipeline " + name + " in topic " + topic,
                cause);
    }

    /** When a pipeline's settings cannot be recorded. */
    public static TributaryException cannotRecordSettings(String name, String topic, Throwable cause) {
        return new TributaryException("cannot record the settings of pipeline " + name + " in topic " + topic + ": " + cause
                + "; the instances of a pipeline compare their specs there: check the client's rights to write it", cause);
    }

    /** When the pipeline is already running on the state folder; {@code holder} describes the other process, or is empty. */
    public static TributaryException alreadyRunning(String pipeline, Path stateDir, String holder) {
        return new TributaryException("pipeline " + pipeline + " is already running on state folder " + stateDir
                + (holder.isEmpty() ? "" : " (" + holder + ")")
                + "; one process per pipeline state: stop the other one first (its /progress and /metrics endpoints show where "
                + "it stands)");
    }

    /** When the state folder cannot be locked. */
    public static TributaryException cannotLockState(Path stateDir, String message, IOException cause) {
        return new TributaryException("cannot lock the state folder " + stateDir + ": " + message, cause);
    }

    /** When the record of a pipeline's last clean run cannot be removed before its state may change. */
    public static TributaryException cannotForgetCleanRun(Path file, IOException cause) {
        return new TributaryException("cannot remove " + file + " (" + cause.getMessage() + "), which says the pipeline's last run ended"
                + " cleanly, before its state changes: make the state folder writable, or remove the file", cause);
    }

    /** When a Kafka source's schemaEvolution addNewColumns comes with a transform, compiled over the columns the run starts with. */
    public static TributaryException addNewColumnsWithTransform(String key) {
        return new TributaryException(key + ": addNewColumns grows a Kafka source's columns while the run goes on, and a transform"
                + " (transform.where/select/join or sql) is compiled over the columns it starts with: leave one of them out");
    }

    /** When a stage kept failing for the whole recovery time. */
    public static TributaryException stageKeptFailing(String stage, long minutes, String message, RuntimeException cause) {
        return new TributaryException("stage " + stage + " kept failing for " + minutes + " minutes; last error: " + message,
                cause);
    }

    /** When a stage of a concurrent run failed: its error, as it is. */
    public static TributaryException stageFailed(Throwable cause) {
        return new TributaryException(cause.toString(), cause);
    }

    /** When the registry topic holds a record that is not a pipeline's settings. */
    public static TributaryException notPipelineSettings(String topic, String json, Throwable cause) {
        return new TributaryException("topic " + topic + " holds a record that is not a pipeline's settings (" + json
                + "); it is Tributary's own: delete the topic once every instance of the pipeline is stopped", cause);
    }

    /** When the bench's service does not stop after SIGTERM. */
    public static TributaryException benchDidNotStop(Path work) {
        return new TributaryException("bench: the service did not stop with exit code 0 within 60 s after SIGTERM; see "
                + work);
    }

    /** When the bench's table holds another number of rows than were written. */
    public static TributaryException benchTableRowsDiffer(long inTable, long written, Path work) {
        return new TributaryException("bench: the table holds " + inTable + " rows, " + written + " were written; see " + work);
    }

    /** When the bench's sink did not commit every row in time. */
    public static TributaryException benchNotCommitted(long committedRows, long rows, boolean alive, Path work) {
        return new TributaryException("bench: the sink committed " + committedRows + " of " + rows + " rows (service "
                + (alive ? "still running" : "exited") + "); see " + work);
    }

    /** When the bench's service exited before it was ready. */
    public static TributaryException benchExitedEarly(int exitValue, Path work) {
        return new TributaryException("bench: the service exited with code " + exitValue + " before it was ready; see " + work);
    }

    /** When a bench run failed. */
    public static TributaryException benchRunFailed(Path folder, int exitValue, Path err) {
        return new TributaryException("bench: the run in " + folder + " failed with exit code " + exitValue + "; see " + err);
    }

    /** When reading the offsets of the pipeline's topics is interrupted. */
    public static TributaryException topicOffsetsInterrupted(InterruptedException e) {
        return new TributaryException("interrupted while reading topic offsets", e);
    }

    /** When the offsets of the pipeline's topics cannot be read. */
    public static TributaryException topicOffsetsUnreadable(String pipeline, java.util.concurrent.ExecutionException e) {
        return new TributaryException("cannot read the topics of pipeline " + pipeline + ": " + e.getCause(), e);
    }

    static TributaryException noJoinTable(String location) {
        return new TributaryException("there is no Delta table at '" + location + "'");
    }

    /** {@code cause}, led by where its value was given ({@code spec FILE line N}). */
    static TributaryException at(String where, TributaryException cause) {
        return new TributaryException(where + ": " + cause.getMessage(), cause);
    }

    /** {@code tributary show --limit} below 0. */
    public static TributaryException negativeLimit(int limit) {
        return new TributaryException("--limit must be 0 or more, not " + limit);
    }

    /** {@code tributary show} of a folder that holds no table. */
    public static TributaryException noTableToShow(String table) {
        return new TributaryException("no Delta table at " + table + " (no _delta_log with a commit)");
    }
}
