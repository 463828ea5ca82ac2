package io.tributary.service.internal;

import io.tributary.ingest.FileIngest;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SkippedFiles;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaSink;
import io.tributary.sink.SinkConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first {@code availableNow} run of a pipeline over an empty folder, done without the embedded broker. Spark's run
 * that finds no file runs no batch and leaves no table; so does Tributary's, and there is nothing for the broker, the
 * topics or the table to hold yet: they are made by the first run that finds a file. The run prints what the normal
 * path prints (each stage's line for batch 0 with no rows, then the summary) after checking the settings as opening
 * the stages checks them, and leaves the state folder as it found it.
 *
 * <p>Only for the pipelines {@link NoOpRun} takes, with the schema given (Spark cannot infer one from an empty folder
 * either), when the state folder holds nothing but its lock, the input folder no entry at all and the table's path
 * nothing; anything else, and a run that records the launcher's class-data archive, takes the normal path.
 */
public final class FirstEmptyRun {
    private static final Logger LOG = LoggerFactory.getLogger(FirstEmptyRun.class);
    /**
     * Set by the launcher on a run that records the class-data archive (a distribution's first run): that run takes the
     * normal path, so that the archive holds the classes of the broker and the stages that later runs map.
     */
    static final String RECORDING = "tributary.cds.recording";

    private FirstEmptyRun() {
    }

    /**
     * If {@code spec} runs for the first time over an empty folder: prints its progress lines and summary to {@code out}
     * and returns true, the broker not started. False: run it. The caller holds the state lock.
     */
    public static boolean run(PipelineSpec spec, RunOptions options, PrintWriter out) {
        if (!NoOpRun.eligible(spec, options) || Boolean.getBoolean(RECORDING)) {
            return false;
        }
        long t0 = System.nanoTime();
        Schema input = PipelineParts.fileSchema(spec);
        String table = spec.location(Settings.SINK_PATH);
        if (input == null || !holdsOnly(spec.stateDir(), StateLock.FILE) || !Files.isDirectory(Path.of(spec.location(Settings.FILES_PATH)))
                || !holdsOnly(Path.of(spec.location(Settings.FILES_PATH)), null) || Files.exists(Path.of(table)) && !holdsOnly(Path.of(table), null)) {
            return false;
        }
        long listMs = (System.nanoTime() - t0) / 1_000_000;
        TransformParts.check(spec); // what opening the pipeline refuses, refused here too
        IngestConfig ingest = PipelineParts.ingestConfig(spec, input, null, true, Optional.empty()); // no table: no rules of its
        SinkConfig sink = PipelineParts.sinkConfig(spec, ingest.outputSchema(), Topics.events(spec.name()), null, null);
        List<Progress> lines = List.of(FileIngest.idleOnNewState(ingest, listMs), DeltaSink.idleBeforeTable(sink));
        RunSummary summary = new RunSummary(spec.name(), spec.trigger().toString());
        lines.forEach(p -> summary.declare(p.name()));
        summary.skipped(new SkippedFiles(List.of(), List.of(), List.of(), List.of()));
        LOG.info("pipeline {}: no file in {} and no state yet: nothing to write, done without starting the broker (no table at {} yet,"
                + " as Spark leaves none)", spec.name(), spec.location(Settings.FILES_PATH), table);
        lines.forEach(p -> out.println(p.toJson()));
        out.println(summary.toJson());
        out.flush();
        return true;
    }

    /** Whether {@code dir} is a folder whose only entry, if any, is {@code allowed} (null: none at all). */
    private static boolean holdsOnly(Path dir, String allowed) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.allMatch(p -> p.getFileName().toString().equals(allowed));
        } catch (IOException e) {
            return false; // unreadable, or not a folder: the normal path says what is wrong
        }
    }
}
