package io.tributary.service.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.ingest.SkippedFiles;
import io.tributary.schema.BuildVersion;
import io.tributary.schema.Progress;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.service.spec.Trigger;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@code availableNow} run with nothing to do, done without the embedded broker. A run of a file
 * pipeline into a local table that ends cleanly (its last round found no new file, nothing was left
 * held back, changed or corrupt, the stages and the broker closed) records in its state folder what
 * makes the next run a no-op: the fingerprint of the input folder as the run's last listing saw it,
 * of every setting of the spec, of the table's {@code _delta_log}, of the broker's folder as it
 * stopped and of this build, and the progress lines an empty run prints next. A later
 * {@code availableNow} run that finds the same five
 * prints those lines and the summary, and exits, without the broker. Any start of the embedded
 * broker on the state removes the record first, so a run that dies leaves none behind.
 *
 * <p>Only the simplest pipelines qualify: a local folder of files, no aggregation or deduplication,
 * no join or {@code sql:}, no {@code cleanSource}, the embedded broker, a local table; anything else
 * always takes the normal path.
 */
public final class NoOpRun {
    private static final Logger LOG = LoggerFactory.getLogger(NoOpRun.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The record, in the pipeline's state folder. */
    static final String FILE = "last-clean-run.json";
    private static final int FORMAT = 1;

    private NoOpRun() {
    }

    /** Whether a run of {@code spec} may be recorded for, and replaced by, a no-op. */
    static boolean eligible(PipelineSpec spec, RunOptions options) {
        if (spec.trigger().kind() != Trigger.Kind.AVAILABLE_NOW || options.reprocess() || options.acceptSpecChange()
                || spec.map(Settings.KAFKA).containsKey("bootstrap.servers")
                || !spec.has(Settings.FILES_PATH) || spec.has(Settings.DELTA_PATH) || Settings.kafkaSource(spec::has)
                || AggregationParts.aggregates(spec) || spec.has(Settings.SQL) || !spec.map(Settings.TRANSFORM_JOIN).isEmpty()
                || !spec.map(Settings.TRANSFORM_LATERAL_VIEW).isEmpty()
                || !"off".equals(spec.string(Settings.CLEAN_SOURCE))) {
            return false;
        }
        String input = spec.location(Settings.FILES_PATH);
        String table = spec.location(Settings.SINK_PATH);
        return table != null && Storage.scheme(input) == null && Storage.scheme(table) == null && !input.matches(".*[*?\\[{].*");
    }

    /**
     * For a run of {@code spec}: what it watches to record at its end, or null when the spec does
     * not qualify ({@link #eligible}).
     */
    static Watch watch(PipelineSpec spec, RunOptions options) {
        return eligible(spec, options) ? new Watch(spec) : null;
    }

    /**
     * If a run of {@code spec} has nothing to do by its state folder's record: prints what an empty
     * run prints (a progress line per stage with a new run id and the time, then the summary) to
     * {@code out} and returns true; the broker is not started. False: run it. The caller holds the state lock.
     */
    public static boolean replay(PipelineSpec spec, RunOptions options, PrintWriter out) {
        if (!eligible(spec, options)) {
            return false;
        }
        long t0 = System.nanoTime();
        JsonNode recorded = read(spec.stateDir().resolve(FILE));
        if (recorded == null || recorded.path("format").asInt() != FORMAT || !recorded.path("build").asText().equals(build())
                || !recorded.path("spec").asText().equals(SpecFingerprint.everySetting(spec).hash())
                || !recorded.path("table").asText().equals(tablePrint(spec).orElse(""))
                || !recorded.path("input").asText().equals(inputPrint(spec).orElse(""))
                || !recorded.path("broker").asText().equals(FolderPrint.of(KafkaConnection.brokerDir(spec)).orElse(""))) {
            return false;
        }
        long listMs = (System.nanoTime() - t0) / 1_000_000;
        RunSummary summary = new RunSummary(spec.name(), spec.trigger().toString());
        String now = Progress.timestamp(System.currentTimeMillis());
        boolean first = true;
        List<String> lines = new ArrayList<>();
        for (JsonNode p : recorded.path("progress")) {
            ObjectNode line = p.deepCopy();
            line.put("runId", UUID.randomUUID().toString());
            line.put("timestamp", now);
            if (first && line.get("durationMs") instanceof ObjectNode times) {
                times.fieldNames().forEachRemaining(k -> times.put(k, listMs)); // the first stage's look at the folder
            }
            first = false;
            summary.declare(line.path("name").asText());
            lines.add(line.toString());
        }
        summary.skipped(new SkippedFiles(List.of(), List.of(), List.of(), List.of()));
        LOG.info("pipeline {}: nothing new since its last run (the same input files, settings and table {}): done without"
                + " starting the broker", spec.name(), spec.location(Settings.SINK_PATH));
        lines.forEach(out::println);
        out.println(summary.toJson());
        out.flush();
        return true;
    }

    /** Removes the state folder's record, durably: before anything may change the pipeline's state. */
    static void forget(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        try {
            if (Files.deleteIfExists(file)) {
                syncFolder(stateDir);
            }
        } catch (IOException e) {
            throw ServiceErrors.cannotForgetCleanRun(file, e);
        }
    }

    /** What a run watches: the input folder before each round, so that the record holds the listing its last round saw. */
    static final class Watch {
        private final PipelineSpec spec;
        private String input;

        private Watch(PipelineSpec spec) {
            this.spec = spec;
        }

        /** Before a round: the ingest lists the folder after this, so every file seen here is one it looked at. */
        void beforeRound() {
            input = inputPrint(spec).orElse(null);
        }

        /**
         * The run's last round found nothing to do, with {@code skipped} left unread over the run and
         * {@code next} what an empty run prints next: the record to write once the pipeline is closed, if any.
         */
        Optional<Ending> ended(List<Progress> next, SkippedFiles skipped) {
            Optional<String> table = tablePrint(spec);
            if (input == null || table.isEmpty() || skipped == null || !skipped.changedAfterIngest().isEmpty()
                    || !skipped.heldBack().isEmpty() || !skipped.settling().isEmpty() || !skipped.corrupt().isEmpty()) {
                return Optional.empty();
            }
            ObjectNode record = JSON.createObjectNode();
            record.put("format", FORMAT);
            record.put("build", build());
            record.put("spec", SpecFingerprint.everySetting(spec).hash());
            record.put("input", input);
            record.put("table", table.get());
            next.forEach(p -> record.withArray("progress").add(JSON.valueToTree(p)));
            return Optional.of(new Ending(spec, record));
        }
    }

    /** A clean end's record, written by {@link #record()} once the pipeline (and its broker) closed. */
    public static final class Ending {
        private final PipelineSpec spec;
        private final ObjectNode record;

        private Ending(PipelineSpec spec, ObjectNode record) {
            this.spec = spec;
            this.record = record;
        }

        /** Writes the record durably, if the table is still as the run left it; a failure only costs the next run its shortcut. */
        public void record() {
            if (!record.path("table").asText().equals(tablePrint(spec).orElse(""))) {
                return; // another writer committed meanwhile
            }
            Optional<String> broker = FolderPrint.of(KafkaConnection.brokerDir(spec));
            if (broker.isEmpty()) {
                return;
            }
            record.put("broker", broker.get()); // as the broker left it when it stopped
            Path dir = spec.stateDir();
            Path tmp = dir.resolve(FILE + ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(JSON.writeValueAsBytes(record)));
                ch.force(true);
                Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                syncFolder(dir);
            } catch (IOException e) {
                LOG.warn("pipeline {}: could not record its clean end in {} ({}): its next run starts the broker",
                        spec.name(), dir.resolve(FILE), e.toString());
            }
        }
    }

    private static Optional<String> inputPrint(PipelineSpec spec) {
        return FolderPrint.of(Path.of(spec.location(Settings.FILES_PATH)));
    }

    private static Optional<String> tablePrint(PipelineSpec spec) {
        return FolderPrint.of(Path.of(spec.location(Settings.SINK_PATH)).resolve("_delta_log"));
    }

    /** This build: its version and its classes' jar (or folder), by size and time. */
    private static String build() {
        String version = BuildVersion.get();
        try {
            Path code = Path.of(NoOpRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return version + " " + code + " " + Files.size(code) + " " + Files.getLastModifiedTime(code).toMillis();
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return version + " unknown " + UUID.randomUUID(); // never equal: no shortcut
        }
    }

    private static JsonNode read(Path file) {
        try {
            return Files.exists(file) ? JSON.readTree(Files.readAllBytes(file)) : null;
        } catch (IOException e) {
            return null; // unreadable: the normal path, which removes it
        }
    }

    private static void syncFolder(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
