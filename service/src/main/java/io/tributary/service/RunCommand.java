package io.tributary.service;

import io.tributary.service.console.ProgressBar;
import io.tributary.service.console.Terminal;
import io.tributary.service.http.ServiceEndpoints;
import io.tributary.service.internal.ArchiveRecording;
import io.tributary.service.internal.FirstEmptyRun;
import io.tributary.service.internal.NoOpRun;
import io.tributary.service.internal.Pipeline;
import io.tributary.service.internal.RunOptions;
import io.tributary.service.internal.RunSummary;
import io.tributary.service.internal.StateLock;
import io.tributary.service.internal.StorageChecks;
import io.tributary.service.internal.StoppedWhileStarting;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary run SPEC}: runs a pipeline; progress JSON lines on stdout, logs on stderr. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a pipeline as its trigger says: one JSON progress line per stage and batch on stdout, "
                + "then a summary line; logs on stderr.",
                "Exit code 0 on success (also after SIGTERM: the batch in flight finishes first), 1 with one line on stderr on failure."})
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Mixin
    SpecOptions specOptions;

    @Spec
    CommandSpec command;

    @Option(names = "--reprocess", description = "accept that the pipeline's state was lost: read every input file again and write its rows again (what Spark does without its checkpoint)")
    boolean reprocess;

    @Option(names = "--accept-spec-change", description = "on a Kafka cluster, with every instance of the pipeline stopped: run with "
            + "settings that define its output (source, aggregation, sink, topics) other than those it last ran with, and record them "
            + "as the pipeline's; the table keeps its rows and the aggregation's open windows are finished under the new settings "
            + "(docs/operations.md)")
    boolean acceptSpecChange;

    @Override
    public Integer call() throws Exception {
        PipelineSpec spec = specOptions.load();
        ArchiveRecording.loadClassesIfRecording(); // a first run that records the class-data archive: the expression engine's too
        PrintWriter out = command.commandLine().getOut();
        StorageChecks.require(spec); // a bucket, credentials or endpoint that is wrong stops the run before anything is written
        // a bounded run watched on a terminal: a progress bar under the log lines on stderr
        ProgressBar bar = spec.trigger().bounded() && Terminal.stderrIsTerminal("json".equals(spec.string(Settings.LOG_FORMAT)))
                ? ProgressBar.onStderr() : null;
        boolean succeeded = false;
        // the lock first: a second run of a running pipeline is told so, not that the HTTP port is taken
        RunOptions noOp = new RunOptions(reprocess, null, () -> false, acceptSpecChange);
        try (StateLock lock = StateLock.acquire(spec.stateDir(), spec.name())) {
            // an availableNow run that finds what the last clean run left: its output without the broker
            // and the first run over an empty folder: nothing to write yet, so no broker either
            if (ServiceEndpoints.port(spec).isEmpty() && (NoOpRun.replay(spec, noOp, out) || FirstEmptyRun.run(spec, noOp, out))) {
                succeeded = true;
                return 0;
            }
            NoOpRun.Ending cleanEnd = run(spec, lock, out, bar);
            if (cleanEnd != null) {
                cleanEnd.record(); // the stages and the broker closed, nothing is open, and the lock still held
            }
            succeeded = true;
        } finally {
            if (bar != null) {
                bar.close(succeeded);
            }
        }
        return 0;
    }

    /** Runs the pipeline; the record of its clean end to write, if any. */
    private NoOpRun.Ending run(PipelineSpec spec, StateLock lock, PrintWriter out, ProgressBar bar) throws Exception {
        NoOpRun.Ending cleanEnd = null;
        try (ServiceEndpoints endpoints = ServiceEndpoints.start(spec)) {
            endpoints.boundPort().ifPresent(port -> lock.describe(", http://" + spec.string(Settings.HTTP_HOST) + ":" + port + "/"));
            GracefulStop stop = GracefulStop.install(endpoints);
            try (Pipeline pipeline = Pipeline.open(spec, new RunOptions(reprocess, lock, stop::requested, acceptSpecChange))) {
                endpoints.attach(pipeline);
                stop.attach(pipeline);
                if (bar != null) {
                    bar.inputStage(pipeline.stageNames().get(0));
                }
                RunSummary summary = pipeline.run(spec.trigger(), p -> {
                    endpoints.record(p);
                    out.println(p.toJson());
                    out.flush();
                    if (bar != null) {
                        bar.accept(p);
                    }
                });
                out.println(summary.toJson());
                out.flush();
                cleanEnd = pipeline.cleanEnd().orElse(null);
            } catch (StoppedWhileStarting e) {
                LOG.info("{}", e.getMessage()); // a stop before anything ran is a clean stop
            } finally {
                stop.uninstall();
            }
        }
        return cleanEnd;
    }
}
